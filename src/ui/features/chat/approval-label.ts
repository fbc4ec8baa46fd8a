import type { ToolCallTrace } from '../../../domain/trace';

type Approval = NonNullable<ToolCallTrace['approval']>;

const ASKED: Record<string, string> = {
  'allow-once': 'allowed once',
  'allow-thread': 'allowed for this thread',
  'allow-always': 'always allowed',
  deny: 'denied',
};

/**
 * How a call was allowed, as its card and the trace say it. A call allowed without asking says why: the person's own
 * earlier "for this thread" or "always", or the deployer's trust in a read-only tool.
 */
export function approvalLabel(approval: Approval): string {
  if (approval.decision !== 'auto-allow') return ASKED[approval.decision] ?? approval.decision;
  switch (approval.by) {
    case 'rule':
      return 'allowed by your earlier choice';
    case 'annotation':
      return 'allowed without asking: a read-only tool of a trusted server';
    default:
      return 'allowed automatically';
  }
}
