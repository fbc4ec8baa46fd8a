import { describe, expect, it } from 'vitest';
import { createStore } from 'zustand/vanilla';
import type { ChatState, PendingApproval } from './chat-store';
import { personAskedIn } from './person-asked';
import type { PendingSampling, SamplingState } from './sampling-requests';
import type { PendingElicitation, ServerRequestsState } from './server-requests';

describe('whether the page asks the person something (the code’s time limit stands still meanwhile)', () => {
  it('its own calls’ approvals ask; a server’s form or model call to review asks while one of its calls runs', () => {
    const chat = createStore<Pick<ChatState, 'pendingApprovals'>>(() => ({ pendingApprovals: [] }));
    const requests = createStore<ServerRequestsState>(() => ({ elicitations: [], refused: [] }));
    const sampling = createStore<SamplingState>(() => ({ samplings: [], refused: [] }));
    const asked = personAskedIn({ chat: () => chat as never, requests, sampling });
    const seen: string[] = [];
    const stop = asked.subscribe(() =>
      seen.push(
        `${asked.isAsked('code-1:', false)}/${asked.isAsked('code-1:', true)}/${asked.isAsked('code-2:', true)}`,
      ),
    );
    expect(asked.isAsked('code-1:', true)).toBe(false);
    // The approval of code-1's own call: asked about code-1, whether or not a call of it runs; not about code-2.
    chat.setState({ pendingApprovals: [{ toolUseId: 'code-1:1' } as PendingApproval] });
    // Another call's approval (the model's own call beside the code) is no question about code-1.
    chat.setState({ pendingApprovals: [{ toolUseId: 'toolu_other' } as PendingApproval] });
    // A server's form or model call to review counts for a code whose call runs (it may be that call's).
    requests.setState({ elicitations: [{} as PendingElicitation] });
    requests.setState({ elicitations: [] });
    const card = (kind: 'review' | 'running' | 'failed') => ({ stage: { kind } }) as PendingSampling;
    sampling.setState({ samplings: [card('running'), card('failed')] });
    sampling.setState({ samplings: [card('review')] });
    expect(seen).toEqual([
      'true/true/false',
      'false/false/false',
      'false/true/true',
      'false/false/false',
      'false/false/false',
      'false/true/true',
    ]);
    stop();
    sampling.setState({ samplings: [] });
    expect(seen).toHaveLength(6);
  });
});
