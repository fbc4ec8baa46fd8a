import { resourceDownload } from './download-name';
import { createContext, useContext, useMemo, useState } from 'react';
import { base64Text } from '../../../domain/attachment-check';
import { kindOf } from '../../../domain/attachment-kind';
import { base64Bytes, formatBytes } from '../../../domain/byte-size';
import type { ResourceReading, ShownResult } from '../../../domain/tool-display';
import { JsonView } from '../../components/json-view';
import { Markdown } from '../../components/markdown';
import { saveBase64 } from '../../components/save-file';
import './tool-result.css';

type Shown = ShownResult['content'][number];
type Resource = Extract<Shown, { type: 'resource' }>;

/** Reads a resource of a server (a resource link clicked in a result); provided by the chat. */
export type ReadResource = (serverId: string, uri: string) => Promise<ResourceReading>;
export const ReadResourceContext = createContext<ReadResource | undefined>(undefined);

const IMAGE_TYPES = /^image\/(png|jpeg|gif|webp)$/;
const AUDIO_TYPES = /^audio\/(wav|x-wav|mpeg|mp3|ogg|webm|aac|flac|mp4)$/;

const isMedia = (item: Shown) => item.type === 'image' || item.type === 'audio';

/** Whether a result has images or audio to show under its card's summary. */
export function hasResultMedia(shown: ShownResult): boolean {
  return shown.content.some(isMedia);
}

/** A finished call's images and audio, shown under its card without opening it (as a chat shows a tool's image). */
export function ToolResultMedia({ shown, tool }: { shown: ShownResult; tool: string }) {
  return (
    <div className="tool-result tool-result-media">
      {shown.content.filter(isMedia).map((item, i) => (
        <ShownItem key={i} item={item} tool={tool} />
      ))}
    </div>
  );
}

/**
 * A tool result as MCP returned it: markdown text, images, audio, embedded resources, resource links, structured
 * content. `withoutMedia` leaves images and audio out (they are shown under the card already).
 */
export function ToolResultView({
  shown,
  serverId,
  tool,
  withoutMedia = false,
}: {
  shown: ShownResult;
  serverId?: string;
  tool: string;
  withoutMedia?: boolean;
}) {
  return (
    <div className="tool-result">
      {shown.content.length === 0 && shown.structuredContent === undefined && (
        <p className="muted">The tool returned nothing (the model was told “no output”).</p>
      )}
      {shown.content.map((item, i) =>
        withoutMedia && isMedia(item) ? null : <ShownItem key={i} item={item} serverId={serverId} tool={tool} />,
      )}
      {shown.structuredContent !== undefined && (
        <details className="structured-content">
          <summary>Structured content</summary>
          <JsonView className="result-json" value={shown.structuredContent} />
        </details>
      )}
    </div>
  );
}

function ShownItem({ item, serverId, tool }: { item: Shown; serverId?: string | undefined; tool: string }) {
  switch (item.type) {
    case 'text':
      return <Markdown text={item.text} />;
    case 'image':
      return IMAGE_TYPES.test(item.mimeType) ? (
        <img
          className="result-image"
          alt={`Image returned by ${tool}`}
          src={`data:${item.mimeType};base64,${item.data}`}
        />
      ) : (
        <p className="muted">
          [image {item.mimeType}, {formatBytes(base64Bytes(item.data))}: this type is not shown]
        </p>
      );
    case 'audio':
      return AUDIO_TYPES.test(item.mimeType) ? (
        <audio
          className="result-audio"
          controls
          aria-label={`Audio returned by ${tool}`}
          src={`data:${item.mimeType};base64,${item.data}`}
        />
      ) : (
        <p className="muted">
          [audio {item.mimeType}, {formatBytes(base64Bytes(item.data))}: this type is not played]
        </p>
      );
    case 'resource':
      return <EmbeddedResource resource={item} />;
    case 'resource_link':
      return <ResourceLink link={item} serverId={serverId} />;
  }
}

/** An embedded resource: its text inline, an image shown, other binary content as a download with its type. */
function EmbeddedResource({ resource }: { resource: Resource }) {
  const type = resource.mimeType ?? 'application/octet-stream';
  // Content a browser would run (HTML, SVG, script), by its type or its name, is saved as text under the name shown.
  const download = resourceDownload(resource.uri, type);
  // Text sent as a blob (base64) is shown as text, as the model reads it.
  const blobText = useMemo(
    () =>
      resource.blob !== undefined && kindOf(resource.uri, type) === 'text' ? base64Text(resource.blob) : undefined,
    [resource.blob, resource.uri, type],
  );
  return (
    <div className="result-resource">
      <p className="muted resource-uri">
        Resource {resource.uri}
        {resource.mimeType ? ` (${resource.mimeType})` : ''}
      </p>
      {resource.text !== undefined && <pre className="result-text">{resource.text}</pre>}
      {blobText !== undefined && <pre className="result-text">{blobText}</pre>}
      {resource.blob !== undefined && IMAGE_TYPES.test(type) && (
        <img className="result-image" alt={`Resource ${resource.uri}`} src={`data:${type};base64,${resource.blob}`} />
      )}
      {resource.blob !== undefined && (
        <button
          type="button"
          className="secondary small"
          onClick={() => saveBase64(download.name, download.type, resource.blob ?? '')}
        >
          Download {download.name} ({download.isAsText ? `saved as text: the server says ${type}` : type},{' '}
          {formatBytes(base64Bytes(resource.blob))})
        </button>
      )}
    </div>
  );
}

type Reading = { readonly status: 'idle' | 'reading' } | ({ readonly status: 'done' } & ResourceReading);

/** A link to a resource of the server: read through `resources/read` when the person asks. */
function ResourceLink({
  link,
  serverId,
}: {
  link: Extract<Shown, { type: 'resource_link' }>;
  serverId?: string | undefined;
}) {
  const read = useContext(ReadResourceContext);
  const [reading, setReading] = useState<Reading>({ status: 'idle' });
  const open = async () => {
    if (!read || !serverId) return;
    setReading({ status: 'reading' });
    setReading({ status: 'done', ...(await read(serverId, link.uri)) });
  };
  return (
    <div className="result-resource-link">
      <p>
        <span className="resource-name">{link.name ?? link.uri}</span>
        <span className="muted">
          {' '}
          {link.uri}
          {link.mimeType ? ` (${link.mimeType})` : ''}
        </span>
      </p>
      {link.description && <p className="muted">{link.description}</p>}
      {reading.status !== 'done' && read && serverId && (
        <button
          type="button"
          className="secondary small"
          disabled={reading.status === 'reading'}
          onClick={() => void open()}
        >
          {reading.status === 'reading' ? 'Reading…' : `Read ${link.name ?? 'resource'}`}
        </button>
      )}
      {reading.status === 'done' &&
        (reading.ok ? (
          reading.contents.map((content, i) => <EmbeddedResource key={i} resource={content} />)
        ) : (
          <p className="field-error">{reading.message}</p>
        ))}
    </div>
  );
}
