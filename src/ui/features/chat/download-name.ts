/** Types a browser would run or render as active content (scripts, HTML, SVG, XML). */
const ACTIVE_TYPE = /html|svg|xml|javascript|ecmascript/i;
const ACTIVE_EXTENSION = /\.(html?|xht(ml)?|shtml|svgz?|xml|xsl|js|mjs|cjs)$/i;

/** How an embedded resource is saved: the name shown is the name saved, with the type it is saved as. */
export interface ResourceDownload {
  readonly name: string;
  readonly type: string;
  /** Saved as plain text because its declared type or its name's extension is active content. */
  readonly isAsText: boolean;
}

/**
 * The download of a resource `uri` the server types `type`: its last path segment, made safe; content a browser would
 * run or render as active (by type or by the name's extension, whichever says so) is saved as .txt, text/plain.
 */
export function resourceDownload(uri: string, type: string): ResourceDownload {
  const last = uri.split(/[/?#]/).filter(Boolean).at(-1) ?? 'resource';
  const name =
    last
      .replace(/[^\w.-]+/g, '_')
      .replace(/^\.+/, '')
      .slice(0, 80) || 'resource';
  if (!ACTIVE_TYPE.test(type) && !ACTIVE_EXTENSION.test(name)) return { name, type, isAsText: false };
  return { name: `${name}.txt`, type: 'text/plain', isAsText: true };
}
