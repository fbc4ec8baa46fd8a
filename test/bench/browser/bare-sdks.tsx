/**
 * The bundle baseline: the minimal parts the app must load, in a bare build (same vite.config.ts): React, the
 * MCP SDK Client with its streamable HTTP transport and the SDK's CSP-safe validator, and the Anthropic SDK.
 */
import Anthropic from '@anthropic-ai/sdk';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CfWorkerJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/cfworker';
import { useState } from 'react';
import { createRoot } from 'react-dom/client';

async function callBoth(url: string, apiKey: string): Promise<string> {
  const client = new Client(
    { name: 'bare', version: '1.0.0' },
    { jsonSchemaValidator: new CfWorkerJsonSchemaValidator() },
  );
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  const { tools } = await client.listTools();
  const anthropic = new Anthropic({ apiKey, dangerouslyAllowBrowser: true });
  const message = await anthropic.messages
    .stream({
      model: 'claude-sonnet-5',
      max_tokens: 100,
      messages: [{ role: 'user', content: tools.map((t) => t.name).join(', ') }],
    })
    .finalMessage();
  return message.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
}

function Page() {
  const [answer, setAnswer] = useState('');
  return (
    <main>
      <textarea aria-label="Message" rows={3} />
      <button type="button" onClick={() => void callBoth(location.href, 'sk-ant').then(setAnswer)}>
        Send
      </button>
      <p>{answer}</p>
    </main>
  );
}

createRoot(document.getElementById('root')!).render(<Page />);
