// Everything that needs the MCP SDK or the schema validator at runtime, loaded as one chunk on first use
// (see lazy-kit.ts): the first screen needs none of it.
export { createMcpClient } from './client-factory';
export { probeServer } from './connection-test';
export { compileInputSchema } from './schema-validation';
export { ServerConnection } from './server-connection';
export { SignInFlows } from './sign-in';
export { completePromptArgument, listAllPrompts, readPrompt } from './server-prompts';
