import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { CodeBlock, colourCode, IDLE_TIMEOUT_MS, SCROLL_PAUSE_MS, whenStill, type IdleRequests } from './code-block';
import { highlightCode } from './code-highlight';

describe('CodeBlock', () => {
  it('shows a block never coloured as its plain text first (colouring waits for the page to be idle)', () => {
    const html = renderToStaticMarkup(<CodeBlock code={'def first():\n    return 1'} language="python" />);
    expect(html).not.toContain('hljs');
    expect(html).toContain('def first():');
  });

  it('shows a block coloured before already coloured in its first render (a row scrolled back, a thread reopened)', () => {
    const code = 'def again():\n    return 2  # kept';
    expect(colourCode({ highlightCode }, code, 'Python')).not.toBeNull();
    const html = renderToStaticMarkup(<CodeBlock code={code} language="Python" />);
    expect(html).toContain('class="hljs language-Python"');
    expect(html).toContain('<span class="hljs-keyword">def</span>');
    expect(html).toContain('<span class="hljs-comment"># kept</span>');
  });

  it('keeps a block of a language it does not know as plain text', () => {
    const code = 'some words';
    expect(colourCode({ highlightCode }, code, 'no-such-language')).toBeNull();
    expect(renderToStaticMarkup(<CodeBlock code={code} language="no-such-language" />)).not.toContain('hljs');
  });

  describe('colouring waits while the page scrolls', () => {
    /** Idle requests answered by hand: `next(didTimeout)` calls the latest one. */
    const fakeIdle = () => {
      const asked: ((deadline: { readonly didTimeout: boolean }) => void)[] = [];
      const cancelled: number[] = [];
      const idle: IdleRequests = {
        request: (callback, timeoutMs) => {
          expect(timeoutMs).toBe(IDLE_TIMEOUT_MS);
          return asked.push(callback);
        },
        cancel: (handle) => void cancelled.push(handle),
      };
      return { idle, asked, cancelled, next: (didTimeout = false) => asked.at(-1)!({ didTimeout }) };
    };

    it('colours in an idle moment once the page has stopped scrolling, not while rows are scrolled past', () => {
      const { idle, asked, next } = fakeIdle();
      let sinceScroll = 0;
      let coloured = 0;
      whenStill(
        () => void coloured++,
        idle,
        () => sinceScroll,
      );
      next();
      sinceScroll = SCROLL_PAUSE_MS - 1;
      next();
      expect(coloured).toBe(0);
      expect(asked).toHaveLength(3);
      sinceScroll = SCROLL_PAUSE_MS;
      next();
      expect(coloured).toBe(1);
      expect(asked).toHaveLength(3);
    });

    it('colours a block still in view when its wait times out, scrolling or not', () => {
      const { idle, next } = fakeIdle();
      let coloured = 0;
      whenStill(
        () => void coloured++,
        idle,
        () => 0,
      );
      next(true);
      expect(coloured).toBe(1);
    });

    it('never colours a block that left before then', () => {
      const { idle, cancelled, next } = fakeIdle();
      const cancel = whenStill(
        () => expect.fail('coloured after it left'),
        idle,
        () => 0,
      );
      next();
      cancel();
      expect(cancelled).toEqual([2]);
    });
  });
});
