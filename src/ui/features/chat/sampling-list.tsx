import type { PendingSampling, RefusedSampling, SamplingRequests } from '../../../stores/sampling-requests';
import { useStoreIfAny } from '../../hooks/use-store';
import { RefusedSamplingNote, SamplingCard } from './sampling-card';
import './sampling.css';

const NO_SAMPLINGS: readonly PendingSampling[] = [];
const NO_REFUSALS: readonly RefusedSampling[] = [];

/** Servers' requests to run the model in the open thread, each waiting for the person, and those refused without asking. */
export function SamplingList({
  requests,
  threadId,
}: {
  requests: SamplingRequests | undefined;
  threadId: string | undefined;
}) {
  const samplings = useStoreIfAny(requests?.store, (s) => s.samplings, NO_SAMPLINGS);
  const refused = useStoreIfAny(requests?.store, (s) => s.refused, NO_REFUSALS);
  return (
    <>
      {samplings
        .filter((request) => request.threadId === threadId)
        .map((request) => (
          <SamplingCard key={request.id} request={request} />
        ))}
      {refused.map((r) => (
        <RefusedSamplingNote key={r.id} refused={r} onDismiss={() => requests?.dismissRefusal(r.id)} />
      ))}
    </>
  );
}
