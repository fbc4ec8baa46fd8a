import { describe, expect, it } from 'vitest';
import { createConsoleLogger, isDebugRequested } from './console-logger';

describe('the debug logger', () => {
  it('is asked for with ?debug=1 only', () => {
    expect(isDebugRequested('?debug=1')).toBe(true);
    expect(isDebugRequested('?thread=a&debug=1')).toBe(true);
    expect(isDebugRequested('')).toBe(false);
    expect(isDebugRequested('?debug=0')).toBe(false);
  });

  it('writes each report with its context to the console', () => {
    const lines: unknown[][] = [];
    const logger = createConsoleLogger({
      warn: (...args: unknown[]) => void lines.push(['warn', ...args]),
      debug: (...args: unknown[]) => void lines.push(['debug', ...args]),
    });
    const error = new Error('disk full');
    logger.warn('Saving failed', { threadId: 't1', error });
    logger.debug('tool call');
    expect(lines).toEqual([
      ['warn', '[mcp-agent] Saving failed', { threadId: 't1', error }],
      ['debug', '[mcp-agent] tool call', {}],
    ]);
  });
});
