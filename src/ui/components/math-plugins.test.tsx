import ReactMarkdown from 'react-markdown';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { mathRehypePlugins, mathRemarkPlugins } from './math-plugins';
import { mayHoldMath } from './use-math-plugins';

const html = (text: string) =>
  renderToStaticMarkup(
    <ReactMarkdown remarkPlugins={mathRemarkPlugins} rehypePlugins={mathRehypePlugins}>
      {text}
    </ReactMarkdown>,
  );

describe('math in answers', () => {
  it('loads KaTeX only for text that may hold a formula', () => {
    expect(mayHoldMath('Energy is $E = mc^2$.')).toBe(true);
    expect(mayHoldMath('$$\n\\int_0^1 x\\,dx\n$$')).toBe(true);
    expect(mayHoldMath('```math\nx^2\n```')).toBe(true);
    expect(mayHoldMath('It costs $5 and $10 with tax.')).toBe(false);
    expect(mayHoldMath('No formula here.')).toBe(false);
  });

  it('typesets inline and display formulas with MathML for screen readers', () => {
    const out = html('Inline $a^2 + b^2 = c^2$ and\n\n$$\n\\frac{1}{2}\n$$');
    expect(out).toMatch(/<span class="katex">/);
    expect(out).toMatch(/<span class="katex-display">/);
    expect(out).toContain('<annotation encoding="application/x-tex">a^2 + b^2 = c^2</annotation>');
    expect(out).toMatch(/<annotation encoding="application\/x-tex">\s*\\frac\{1\}\{2\}\s*<\/annotation>/);
  });

  it('refuses links and HTML a formula asks for (trust: false): the command shows as text in the error colour', () => {
    const out = html('$\\href{javascript:alert(1)}{click}$ and $\\htmlClass{x}{y}$ and $\\url{https://evil.example}$');
    expect(out).not.toMatch(/<a\b|href=|class="x"/);
    for (const command of ['href', 'htmlClass', 'url'])
      expect(out).toContain(`<span class="mord" style="color:var(--error)">\\${command}</span>`);
  });

  it('shows a formula KaTeX cannot parse as its source in an error span, and the rest of the answer', () => {
    const out = html('Bad $\\frac{1}{$ but **bold** stays.');
    expect(out).toContain('<span class="katex-error" title="ParseError');
    expect(out).toContain('<strong>bold</strong>');
  });
});
