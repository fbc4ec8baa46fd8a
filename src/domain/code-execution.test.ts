// The "code" setting's tiers (issue #24 item 3): call over thread over user over app, and the app's default as the
// deployer writes it in app-config.json.
import { describe, expect, it } from 'vitest';
import { AppConfig } from './app-config';
import { resolveCodeExecutionMode } from './code-execution';

describe('where a turn’s code runs', () => {
  it('takes the most specific tier that is set', () => {
    expect(resolveCodeExecutionMode({ app: 'local' })).toBe('local');
    expect(resolveCodeExecutionMode({ user: 'anthropic', app: 'local' })).toBe('anthropic');
    expect(resolveCodeExecutionMode({ thread: 'off', user: 'anthropic', app: 'local' })).toBe('off');
    expect(resolveCodeExecutionMode({ call: 'local', thread: 'off', user: 'anthropic', app: 'off' })).toBe('local');
    expect(resolveCodeExecutionMode({ thread: 'anthropic', app: 'off' })).toBe('anthropic');
  });
});

describe('defaults.enableProgrammaticCalling in app-config.json', () => {
  const parse = (value: unknown) => AppConfig.safeParse({ defaults: { enableProgrammaticCalling: value } });

  it('is local when absent, and takes true, false or a mode', () => {
    expect(AppConfig.parse({}).defaults.enableProgrammaticCalling).toBe('local');
    expect(parse(true).data?.defaults.enableProgrammaticCalling).toBe('local');
    expect(parse(false).data?.defaults.enableProgrammaticCalling).toBe('off');
    expect(parse('anthropic').data?.defaults.enableProgrammaticCalling).toBe('anthropic');
  });

  it('refuses anything else with a message that names the values', () => {
    const result = parse('remote');
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe(
      'enableProgrammaticCalling must be true, false, "local", "anthropic" or "off"',
    );
    expect(result.error?.issues[0]?.path).toEqual(['defaults', 'enableProgrammaticCalling']);
  });
});
