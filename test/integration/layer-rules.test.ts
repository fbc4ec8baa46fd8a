import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';

/** Lints a snippet as if it were a file at `filePath`, with the project's real config (type-aware rules off). */
async function restrictedMessages(filePath: string, code: string): Promise<string[]> {
  const eslint = new ESLint({
    overrideConfig: [{ files: ['**/*.ts', '**/*.tsx'], ...tseslint.configs.disableTypeChecked }],
  });
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).filter((m) => m.ruleId?.startsWith('no-restricted')).map((m) => m.message);
}

describe('the layer rules of ARCHITECTURE.md are enforced by lint', () => {
  it.each([
    ['src/domain/x.ts', "import { openDB } from 'idb';", 'may import idb'],
    [
      'src/domain/x.ts',
      "import { createStorage } from '../storage/storage';",
      'src/domain/ may not import src/storage/',
    ],
    [
      'src/platform/x.ts',
      "import { createStorage } from '../storage/storage';",
      'src/platform/ may not import src/storage/',
    ],
    ['src/storage/x.ts', "import { x } from '../mcp/registry';", 'src/storage/ may not import src/mcp/'],
    ['src/agent/x.ts', "import { x } from '../mcp/registry';", 'src/agent/ may not import src/mcp/'],
    ['src/stores/x.ts', "import { useState } from 'react';", 'may import react'],
    [
      'src/turns/x.ts',
      "import { createChatStore } from '../stores/chat-store';",
      'src/turns/ may not import src/stores/',
    ],
    ['src/turns/x.ts', "import { create } from 'zustand';", 'may import zustand'],
    ['src/turns/x.ts', "import { useState } from 'react';", 'may import react'],
    ['src/agent/x.ts', "import { sendMessage } from '../turns/turn-runner';", 'src/agent/ may not import src/turns/'],
    ['src/mcp/x.ts', "import { sendMessage } from '../turns/turn-runner';", 'src/mcp/ may not import src/turns/'],
    ['src/search/x.ts', "import { sendMessage } from '../turns/turn-runner';", 'src/search/ may not import src/turns/'],
    [
      'src/storage/x.ts',
      "import { sendMessage } from '../turns/turn-runner';",
      'src/storage/ may not import src/turns/',
    ],
    ['src/ui/x.tsx', "import { sendMessage } from '../turns/turn-runner';", 'src/ui/ may not import src/turns/'],
    ['src/turns/x.ts', 'export const get = () => fetch("/x");', 'Only src/platform/ touches fetch'],
    ['src/ui/x.tsx', "import { createStorage } from '../storage/storage';", 'src/ui/ may not import src/storage/'],
    ['src/ui/x.tsx', "import { create } from 'zustand';", 'may import zustand'],
    [
      'src/search/x.ts',
      "import { openAppDatabase } from '../platform/database';",
      'src/search/ may not import src/platform/',
    ],
    ['src/storage/x.ts', 'export const open = () => indexedDB.open("x");', 'Only src/platform/ touches indexedDB'],
    ['src/mcp/x.ts', 'export const get = () => fetch("/x");', 'Only src/platform/ touches fetch'],
    ['src/stores/x.ts', 'export const k = () => localStorage.getItem("k");', 'Only src/platform/ touches localStorage'],
  ])('%s: %s is refused', async (filePath, code, expected) => {
    const messages = await restrictedMessages(filePath, `${code}\n`);
    expect(messages).toEqual([expect.stringContaining(expected)]);
  });

  it.each([
    [
      'src/storage/x.ts',
      "import { openAppDatabase } from '../platform/database';\nimport { ThreadConfig } from '../domain/thread-config';",
    ],
    [
      'src/stores/x.ts',
      "import { createStore } from 'zustand/vanilla';\nimport { createStorage } from '../storage/storage';",
    ],
    ['src/ui/x.tsx', "import { useState } from 'react';\nimport { createAppStore } from '../stores/app-store';"],
    ['src/platform/x.ts', 'export const open = () => indexedDB.open("x");'],
    [
      'src/turns/x.ts',
      "import { runTurn } from '../agent/run-turn';\nimport { createRegistry } from '../mcp/registry';\nimport { createToolIndex } from '../search/tool-index';\nimport { createStorage } from '../storage/storage';",
    ],
    ['src/stores/x.ts', "import { sendMessage } from '../turns/turn-runner';"],
    ['src/ui/features/chat/x.tsx', "import { groupTurns } from './turns';"],
  ])('%s: allowed imports pass', async (filePath, code) => {
    expect(await restrictedMessages(filePath, `${code}\n`)).toEqual([]);
  });
});
