import { describe, expect, it } from 'vitest';
import { createStore } from 'zustand/vanilla';
import type { ChatState, PendingApproval } from './chat-store';
import { personAskedIn } from './person-asked';
import type { PendingSampling, SamplingState } from './sampling-requests';
import type { PendingElicitation, ServerRequestsState } from './server-requests';

describe('whether the page asks the person something (the code’s time limit stands still meanwhile)', () => {
  it('an approval, a server’s form, or a server’s model call to review asks; a model call running or sent does not', () => {
    const chat = createStore<Pick<ChatState, 'pendingApprovals'>>(() => ({ pendingApprovals: [] }));
    const requests = createStore<ServerRequestsState>(() => ({ elicitations: [], refused: [] }));
    const sampling = createStore<SamplingState>(() => ({ samplings: [], refused: [] }));
    const asked = personAskedIn({ chat: () => chat as never, requests, sampling });
    const changes: boolean[] = [];
    const stop = asked.subscribe(() => changes.push(asked.isAsked()));
    expect(asked.isAsked()).toBe(false);
    chat.setState({ pendingApprovals: [{} as PendingApproval] });
    chat.setState({ pendingApprovals: [] });
    requests.setState({ elicitations: [{} as PendingElicitation] });
    requests.setState({ elicitations: [] });
    const card = (kind: 'review' | 'running' | 'failed') => ({ stage: { kind } }) as PendingSampling;
    sampling.setState({ samplings: [card('running'), card('failed')] });
    sampling.setState({ samplings: [card('review')] });
    expect(changes).toEqual([true, false, true, false, false, true]);
    stop();
    sampling.setState({ samplings: [] });
    expect(changes).toHaveLength(6);
  });
});
