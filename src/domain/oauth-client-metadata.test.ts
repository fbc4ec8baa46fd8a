import { describe, expect, it } from 'vitest';
import { clientMetadataDocument } from './oauth-client-metadata';

describe('clientMetadataDocument', () => {
  it('names itself as the client id and the callback route as the only redirect URI', () => {
    expect(clientMetadataDocument('https://agent.example.com', '/app/')).toEqual({
      client_id: 'https://agent.example.com/app/oauth/client-metadata.json',
      client_name: 'MCP Agent',
      client_uri: 'https://agent.example.com/app/',
      redirect_uris: ['https://agent.example.com/app/oauth/callback'],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    });
  });
});
