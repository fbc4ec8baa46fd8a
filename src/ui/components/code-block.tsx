import { useEffect, useState, type ReactNode } from 'react';
import type { highlightCode } from './code-highlight';
import { CopyButton } from './copy-button';

type Highlighter = { readonly highlightCode: typeof highlightCode };
let highlighter: Promise<Highlighter | undefined> | undefined;
/** The grammars load with the first code block that names a language, never with the first screen. */
const loadHighlighter = () =>
  (highlighter ??= import('./code-highlight').catch(() => {
    highlighter = undefined; // The block stays plain text (what the person sees); a later block tries the load again.
    return undefined;
  }));

/**
 * A fenced code block: its text at once, coloured once the highlighter has loaded (if the fence names a language it
 * knows), with a Copy button. Colouring that fails leaves the plain text.
 */
export function CodeBlock({ code, language }: { code: string; language?: string }) {
  const [coloured, setColoured] = useState<{ code: string; nodes: ReactNode } | undefined>();
  useEffect(() => {
    if (!language) return;
    let isCurrent = true;
    void loadHighlighter().then((module) => {
      let nodes: ReactNode | undefined;
      try {
        nodes = module?.highlightCode(code, language.toLowerCase());
      } catch {
        nodes = undefined;
      }
      if (isCurrent && nodes !== undefined) setColoured({ code, nodes });
    });
    return () => {
      isCurrent = false;
    };
  }, [code, language]);
  const isColoured = coloured?.code === code;
  return (
    <div className="code-block">
      {language && <span className="code-language">{language}</span>}
      <CopyButton text={code} label="Copy code" />
      <pre>
        <code className={isColoured ? `hljs language-${language}` : undefined}>
          {isColoured ? coloured.nodes : code}
        </code>
      </pre>
    </div>
  );
}
