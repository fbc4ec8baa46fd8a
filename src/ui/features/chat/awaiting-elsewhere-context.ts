import { createContext } from 'react';

/**
 * The open thread's tool calls that wait for the person's approval in another tab (the one answering in the thread),
 * by tool_use id: their cards say so, rather than "not run".
 */
export const AwaitingElsewhereContext = createContext<ReadonlySet<string>>(new Set());
