import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { ServerView } from '../../../stores/servers-store';
import { ThreadServers } from './thread-servers';

const server = (
  id: string,
  status: ServerView['status'],
  toolCount: number,
  enabledToolCount = toolCount,
  hasToolList = true,
) => ({ id, name: id, status, toolCount, enabledToolCount, hasToolList }) as ServerView;

/** Each switch row's text, tags stripped. */
function rows(servers: ServerView[], enabledIds: string[]): string[] {
  const html = renderToStaticMarkup(<ThreadServers servers={servers} enabledIds={enabledIds} onChange={() => {}} />);
  return [...html.matchAll(/<label[^>]*>(.*?)<\/label>/g)].map(([, row]) => row!.replace(/<[^>]+>/g, ' ').trim());
}

/** The legend's text. */
function legend(servers: ServerView[], enabledIds: string[]): string {
  const html = renderToStaticMarkup(<ThreadServers servers={servers} enabledIds={enabledIds} onChange={() => {}} />);
  return /<legend>(.*?)<\/legend>/.exec(html)![1]!.replace(/<!-- -->/g, '');
}

describe('the servers of a thread', () => {
  it('counts the servers switched on once there are more than a line or two hold (the box scrolls)', () => {
    const five = ['A', 'B', 'C', 'D', 'E'].map((id) => server(id, 'connected', 1));
    // An id of a server removed since does not count.
    expect(legend(five, ['A', 'C', 'E', 'gone'])).toBe('Servers in this thread: 3 of 5 on');
    expect(legend(five.slice(0, 4), ['A'])).toBe('Servers in this thread');
  });

  it('says in words why a server switched on is not ready, and nothing of the kind for one switched off', () => {
    const list = [
      server('Weather', 'disconnected', 12),
      server('Mail', 'needs-auth', 3),
      server('Git', 'connected', 9),
    ];
    expect(rows(list, ['Mail', 'Git'])).toEqual([
      'Weather  12 tools',
      'Mail  Sign-in needed · 3 tools',
      'Git  9 tools',
    ]);
  });

  it('gives the reason of a server in error with its switch (hover and screen reader), not of one switched off', () => {
    const down = { ...server('Flaky', 'error', 5), error: 'http://127.0.0.1:1 does not answer.' };
    const html = renderToStaticMarkup(<ThreadServers servers={[down]} enabledIds={['Flaky']} onChange={() => {}} />);
    const described = /aria-describedby="([^"]+)"/.exec(html)![1]!;
    expect(html).toContain(`id="${described}" title="http://127.0.0.1:1 does not answer."`);
    expect(rows([down], ['Flaky'])).toEqual(['Flaky  Error · 5 tools . http://127.0.0.1:1 does not answer.']);
    expect(rows([down], [])).toEqual(['Flaky  5 tools']);
  });

  it('says a server not connected yet has its tools to come, not that it has none', () => {
    const list = [
      server('Imported', 'disconnected', 0, 0, false),
      server('Empty', 'connected', 0),
      server('Resources only', 'disconnected', 0), // Listed none before: it still has none.
    ];
    expect(rows(list, [])).toEqual([
      'Imported  tools listed once connected',
      'Empty  0 tools',
      'Resources only  0 tools',
    ]);
  });

  it('counts the tools switched on, as the Servers panel does', () => {
    expect(rows([server('Calc', 'connected', 3, 2)], ['Calc'])).toEqual(['Calc  2 of 3 tools']);
  });
});
