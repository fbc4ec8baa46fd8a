// Approval keys ("server/tool"), without the approvals' schemas (server-trust.ts), so that the first screen does not
// load zod.

/** The server id of an approval key ("files/delete_file" → "files"): server ids never contain "/". */
export const serverIdOfKey = (key: string): string => key.slice(0, key.indexOf('/'));
/** The tool name of an approval key (tool names may contain "/"). */
export const toolNameOfKey = (key: string): string => key.slice(key.indexOf('/') + 1);
