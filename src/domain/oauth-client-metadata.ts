/** Path of the OAuth callback route, under the app's base URL. */
export const OAUTH_CALLBACK_PATH = 'oauth/callback';
/** Path of the client ID metadata document a deployment serves, under the app's base URL. */
export const CLIENT_METADATA_PATH = 'oauth/client-metadata.json';

/**
 * The OAuth client ID metadata document for a deployment at `origin` + `basePath` (an https origin;
 * authorization servers fetch it, and its URL is the client id).
 */
export function clientMetadataDocument(origin: string, basePath = '/', clientName = 'MCP Agent') {
  const base = `${origin.replace(/\/+$/, '')}${basePath.endsWith('/') ? basePath : `${basePath}/`}`;
  return {
    client_id: `${base}${CLIENT_METADATA_PATH}`,
    client_name: clientName,
    client_uri: base,
    redirect_uris: [`${base}${OAUTH_CALLBACK_PATH}`],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
  };
}
