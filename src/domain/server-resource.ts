/** A resource a server lists (`resources/list`). */
export interface ResourceInfo {
  readonly uri: string;
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly mimeType?: string;
  /** Bytes, when the server says. */
  readonly size?: number;
}

/** A resource template a server lists (`resources/templates/list`), with the names of its variables. */
export interface ResourceTemplateInfo {
  readonly uriTemplate: string;
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly mimeType?: string;
  readonly variables: readonly string[];
}

/** What a server offers to attach: its resources and templates, and whether it sends updates of one subscribed to. */
export interface ResourceListing {
  readonly serverId: string;
  readonly serverName: string;
  readonly resources: readonly ResourceInfo[];
  readonly templates: readonly ResourceTemplateInfo[];
  readonly canSubscribe: boolean;
  /** Why the listing is empty or partial (the server could not be reached, or it refused a page). */
  readonly problem?: string;
  /** The server has no resources at all (no `resources` capability): nothing went wrong. */
  readonly notOffered?: true;
}

/** One content item of a read resource: text, or base64 bytes. */
export interface ResourceContentItem {
  readonly uri: string;
  readonly mimeType?: string;
  readonly text?: string;
  readonly blob?: string;
}
