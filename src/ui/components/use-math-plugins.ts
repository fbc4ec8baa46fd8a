import { useEffect, useState } from 'react';
import type * as MathModule from './math-plugins';

/** KaTeX's remark and rehype plugins (math-plugins.ts). */
export type MathPlugins = typeof MathModule;

/** `$$…$$`, or `$…$` whose first and last characters are not blanks: text that may hold a formula. */
const MAY_HOLD_MATH = /\$\$[\s\S]+?\$\$|\$[^\s$][^$\n]*?(?<!\s)\$|```math/;

let loaded: MathPlugins | undefined;
let loading: Promise<MathPlugins | undefined> | undefined;
/** KaTeX (its code, CSS and fonts) loads with the first text that has a formula, never with the first screen. */
const loadMath = () =>
  (loading ??= import('./math-plugins').then(
    (module) => (loaded = module),
    () => undefined,
  ));

/** Whether `text` may hold a formula, so that KaTeX is worth loading for it. */
export function mayHoldMath(text: string): boolean {
  return MAY_HOLD_MATH.test(text);
}

/**
 * The remark and rehype plugins that typeset `text`'s formulas, once loaded; undefined for text without one, and
 * meanwhile (the text shows as written until KaTeX arrives; if it cannot load, it stays so).
 */
export function useMathPlugins(text: string): MathPlugins | undefined {
  const needsMath = mayHoldMath(text);
  const [plugins, setPlugins] = useState(loaded);
  useEffect(() => {
    if (!needsMath || plugins) return;
    let isCurrent = true;
    void loadMath().then((module) => {
      if (isCurrent && module) setPlugins(module);
    });
    return () => {
      isCurrent = false;
    };
  }, [needsMath, plugins]);
  return needsMath ? (plugins ?? loaded) : undefined;
}
