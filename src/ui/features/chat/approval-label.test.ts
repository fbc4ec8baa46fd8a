import { describe, expect, it } from 'vitest';
import { approvalLabel } from './approval-label';

describe('approvalLabel', () => {
  it("tells the person's own earlier choice from the deployer's trust in a read-only tool", () => {
    expect(approvalLabel({ decision: 'auto-allow', by: 'rule' })).toBe('allowed by your earlier choice');
    expect(approvalLabel({ decision: 'auto-allow', by: 'annotation' })).toBe(
      'allowed without asking: a read-only tool of a trusted server',
    );
  });

  it('says what the person answered when asked', () => {
    expect(approvalLabel({ decision: 'allow-once', by: 'person' })).toBe('allowed once');
    expect(approvalLabel({ decision: 'allow-thread', by: 'person' })).toBe('allowed for this thread');
    expect(approvalLabel({ decision: 'allow-always', by: 'person' })).toBe('always allowed');
    expect(approvalLabel({ decision: 'deny', by: 'person' })).toBe('denied');
  });
});
