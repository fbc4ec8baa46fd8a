import { firstChars, safeSegment } from '../../../domain/file-name';

/** Types a browser would run or render as active content (scripts, HTML, SVG, XML), by the type without parameters. */
const ACTIVE_TYPES = new Set([
  'text/html',
  'application/xhtml+xml',
  'image/svg+xml',
  'text/xml',
  'application/xml',
  'text/xsl',
  'application/xslt+xml',
  'text/javascript',
  'application/javascript',
  'application/x-javascript',
  'text/ecmascript',
  'application/ecmascript',
  'message/rfc822',
  'multipart/related',
]);
const ACTIVE_EXTENSION = /\.(html?|xht(ml)?|shtml|mht(ml)?|svgz?|xml|xslt?|js|mjs|cjs)$/i;

/** Whether a declared type is active content: one of those, or any XML document type (`+xml`) but Office's zipped ones. */
function isActiveType(type: string): boolean {
  const bare = type.split(';')[0]!.trim().toLowerCase();
  return ACTIVE_TYPES.has(bare) || bare.endsWith('+xml');
}

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
    firstChars(safeSegment(last).replace(/^\.+/, ''), 80)
      // A browser drops trailing dots when it saves: "invoice.html." would be saved as HTML.
      .replace(/\.+$/, '') || 'resource';
  if (!isActiveType(type) && !ACTIVE_EXTENSION.test(name)) return { name, type, isAsText: false };
  return { name: `${name}.txt`, type: 'text/plain', isAsText: true };
}
