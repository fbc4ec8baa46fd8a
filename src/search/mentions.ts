import type { ToolRef } from '../domain/tool-catalog';
import type { SearchableTool } from './tool-document';

// "@name" at the start of the message or after white space or an opening bracket (so "a@b.com" is no mention).
const MENTION = /(?:^|[\s([{"'])@([^\s@]+)/gu;
const MAX_MENTIONS = 20;

/** Lowercase letters and digits only, so "@Yahoo-Finance" meets "yahoo_finance" and "Yahoo Finance". */
const squash = (text: string): string => text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');

/** The raw `@` mentions in a message, trailing punctuation removed. */
export function mentionTokens(message: string): string[] {
  const out: string[] = [];
  for (const match of message.matchAll(MENTION)) {
    const token = (match[1] ?? '').replace(/[.,;:!?)\]}"']+$/u, '');
    if (token) out.push(token);
    if (out.length >= MAX_MENTIONS) break;
  }
  return out;
}

const toolMatches = (tool: SearchableTool, name: string): boolean =>
  squash(tool.toolName) === name || squash(tool.modelName) === name;
const serverMatches = (tool: SearchableTool, name: string): boolean =>
  squash(tool.serverName) === name || squash(tool.serverId) === name;

/**
 * The tools a message names with `@tool`, `@server` (all its tools) or `@server/tool`, matched case-insensitively on
 * the tool's name or model name and the server's name or id, ignoring spaces and punctuation. Only `tools` (the
 * thread's enabled tools) can match; a server mention brings at most `perServerCap` tools.
 */
export function findMentions(message: string, tools: readonly SearchableTool[], perServerCap = 20): ToolRef[] {
  const found = new Map<string, ToolRef>();
  const add = (tool: SearchableTool): void => {
    found.set(`${tool.serverId}\u0000${tool.toolName}`, { serverId: tool.serverId, toolName: tool.toolName });
  };
  for (const token of mentionTokens(message)) {
    const slash = token.indexOf('/');
    if (slash > 0) {
      const server = squash(token.slice(0, slash));
      const name = squash(token.slice(slash + 1));
      for (const tool of tools) if (serverMatches(tool, server) && toolMatches(tool, name)) add(tool);
      continue;
    }
    const name = squash(token);
    if (!name) continue;
    const byTool = tools.filter((tool) => toolMatches(tool, name));
    if (byTool.length > 0) {
      byTool.forEach(add);
      continue;
    }
    tools
      .filter((tool) => serverMatches(tool, name))
      .slice(0, perServerCap)
      .forEach(add);
  }
  return [...found.values()];
}
