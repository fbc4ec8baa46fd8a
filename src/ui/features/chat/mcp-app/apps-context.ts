import { createContext } from 'react';
import type { McpAppsActions } from '../../../../stores/mcp-apps';

/** The chat's MCP Apps (issue #21), when they are on: tool cards render the apps their tools declare. */
export const McpAppsContext = createContext<McpAppsActions | undefined>(undefined);
