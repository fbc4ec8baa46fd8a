// The thread's history fitted to the tools of one request: references to tools the request does not define, and the
// API's own tool search blocks when the request has no such tool, are what the real API refuses
// (https://platform.claude.com/docs/en/agents-and-tools/tool-use/tool-search-tool, "Error handling": a tool_reference
// must name a tool defined in `tools`). They appear when a server is switched off in a thread or the mode changes.
import type { ContentBlock } from '../domain/message';
import type { ModelMessage } from './model-port';
import type { ModelTool } from '../domain/tool';
import { ANTHROPIC_CODE_EXECUTION_NAME, ANTHROPIC_CODE_EXECUTION_TYPE } from '../domain/code-execution';

type ResultContent = Extract<ContentBlock, { type: 'tool_result' }>['content'][number];

const isServerSearch = (tool: ModelTool): boolean => 'type' in tool && tool.type.startsWith('tool_search_tool_');
const isCodeExecution = (tool: ModelTool): boolean => 'type' in tool && tool.type === ANTHROPIC_CODE_EXECUTION_TYPE;

/** What Anthropic's code execution printed, as a note the model can read once the request has no such tool. */
function codeOutputNote(block: Extract<ContentBlock, { type: 'code_execution_tool_result' }>): ContentBlock {
  const { stdout, stderr, error_code: errorCode } = block.content;
  const output = [stdout, stderr].filter((part) => typeof part === 'string' && part !== '').join('\n');
  const what = errorCode ? `failed (${errorCode})` : output ? `printed:\n${output}` : 'printed nothing';
  return { type: 'text', text: `[Code that ran in Anthropic's code execution ${what}]` };
}

/** A tool_reference to a tool this request does not define becomes a note the model can read. */
function fitResultContent(content: readonly ResultContent[], names: ReadonlySet<string>): ResultContent[] {
  return content.map((inner) =>
    inner.type === 'tool_reference' && !names.has(inner.tool_name)
      ? { type: 'text', text: `[The tool ${inner.tool_name} is not available here any more.]` }
      : inner,
  );
}

function fitBlocks(
  blocks: readonly ContentBlock[],
  names: ReadonlySet<string>,
  hasServerSearch: boolean,
  hasCodeExecution: boolean,
): ContentBlock[] {
  const answered = new Set(blocks.flatMap((b) => (b.type === 'tool_search_tool_result' ? [b.tool_use_id] : [])));
  const asked = new Set(blocks.flatMap((b) => (b.type === 'server_tool_use' ? [b.id] : [])));
  const out: ContentBlock[] = [];
  for (const block of blocks) {
    if (block.type === 'tool_result') out.push({ ...block, content: fitResultContent(block.content, names) });
    // Programmatic tool calling (Anthropic's code execution): its blocks go back as they came while the request
    // offers the code execution tool; without it (the thread's code setting changed) the code's calls read as the
    // model's own and what it printed as a note.
    else if (block.type === 'server_tool_use' && block.name === ANTHROPIC_CODE_EXECUTION_NAME) {
      if (hasCodeExecution) out.push(block);
    } else if (block.type === 'code_execution_tool_result') {
      out.push(hasCodeExecution ? block : codeOutputNote(block));
    } else if (block.type === 'tool_use' && block.caller && !hasCodeExecution) {
      const { caller: _caller, ...direct } = block;
      out.push(direct);
    } else if (block.type === 'server_tool_use') {
      if (hasServerSearch && answered.has(block.id)) out.push(block);
    } else if (block.type === 'tool_search_tool_result') {
      if (!hasServerSearch || !asked.has(block.tool_use_id)) continue;
      const content = block.content;
      out.push(
        content.type === 'tool_search_tool_search_result'
          ? {
              ...block,
              content: { ...content, tool_references: content.tool_references.filter((r) => names.has(r.tool_name)) },
            }
          : block,
      );
    } else out.push(block);
  }
  return out;
}

/** The messages with every tool reference resolvable by `tools`; messages left empty are dropped, neighbours merged. */
export function fitHistoryToTools(messages: readonly ModelMessage[], tools: readonly ModelTool[]): ModelMessage[] {
  const names = new Set(tools.map((tool) => tool.name));
  const hasServerSearch = tools.some(isServerSearch);
  const hasCodeExecution = tools.some(isCodeExecution);
  const out: { role: ModelMessage['role']; content: ContentBlock[] }[] = [];
  for (const message of messages) {
    const content = fitBlocks(message.content, names, hasServerSearch, hasCodeExecution);
    if (content.length === 0) continue;
    const last = out.at(-1);
    if (last?.role === message.role) last.content.push(...content);
    else out.push({ role: message.role, content });
  }
  return out;
}
