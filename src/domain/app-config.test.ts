import { describe, expect, it } from 'vitest';
import { AppConfig } from './app-config';

describe('app-config.json: discovery', () => {
  it('is off unless the deployer names a registry', () => {
    expect(AppConfig.parse({}).discovery).toEqual({ enabled: false, autoDiscover: false });
    expect(
      AppConfig.parse({ discovery: { enabled: true, endpoint: 'https://registry.example.com' } }).discovery,
    ).toEqual({ enabled: true, endpoint: 'https://registry.example.com', autoDiscover: false });
  });

  it('refuses an enabled directory without an endpoint, or an endpoint that is not https', () => {
    const messages = (input: unknown) => AppConfig.safeParse(input).error?.issues.map((i) => i.message);
    expect(messages({ discovery: { enabled: true } })).toEqual([
      'A registry endpoint is needed when discovery is enabled',
    ]);
    expect(messages({ discovery: { enabled: true, endpoint: 'javascript:alert(1)' } })).toEqual([
      'Registry endpoint must use https:// (got javascript:)',
    ]);
  });
});
