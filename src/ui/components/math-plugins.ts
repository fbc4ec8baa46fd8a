import type { Options } from 'react-markdown';
import rehypeKatex from 'rehype-katex';
import remarkMath from 'remark-math';
import 'katex/dist/katex.min.css';
import './math.css';

type PluggableList = NonNullable<Options['remarkPlugins']>;

/** `$…$` inline and `$$…$$` (or a ```math fence) as a block. */
export const mathRemarkPlugins: PluggableList = [remarkMath];

/**
 * KaTeX renders each formula to HTML that rehype-katex parses into a hast tree (in an inert `<template>`), so React
 * builds the elements itself: the page never takes an HTML string, and KaTeX's `style` attributes reach the DOM as
 * React style objects (set through the CSSOM, which `style-src 'self'` allows, unlike style attributes in markup).
 * `trust: false` refuses \href, \url, \includegraphics and \html*; maxSize and maxExpand bound what one formula costs.
 */
export const mathRehypePlugins: PluggableList = [
  [
    rehypeKatex,
    {
      output: 'htmlAndMathml',
      throwOnError: false,
      trust: false,
      maxSize: 50,
      maxExpand: 500,
      // The theme's error colour: KaTeX's #cc0000 is under 4.5:1 on the dark theme's panels.
      errorColor: 'var(--error)',
    },
  ],
];
