/**
 * The memory tools for the Vercel AI SDK (`ai`, an optional peer dependency: tested with
 * ai 6.0.333). Pass them as `tools` to `generateText` or `streamText`:
 *
 *   const result = await generateText({ model, tools: aiSdkTools(client), prompt, stopWhen: stepCountIs(5) });
 */
import { jsonSchema, type Tool, tool } from "ai";

import type { ReverieClient } from "./client.js";
import {
  type CorrectToolInput,
  type ForgetToolInput,
  type JsonSchemaObject,
  type RecallToolInput,
  type RecallToolOutput,
  type RememberToolInput,
  type ReverieTool,
  reverieTools,
  type ReverieToolsOptions,
  type ToolMemory,
} from "./tools.js";

// A type, not an interface: the SDK's `ToolSet` takes only types with an implicit index
// signature.
export type AiSdkTools = {
  readonly remember: Tool<RememberToolInput, ToolMemory>;
  readonly recall: Tool<RecallToolInput, RecallToolOutput>;
  readonly forget: Tool<ForgetToolInput, { readonly forgotten: string }>;
  readonly correct: Tool<CorrectToolInput, ToolMemory & { readonly replaces: string }>;
};

function schemaOf<Input>(plain: ReverieTool<Input, unknown>) {
  return jsonSchema<Input>(plain.inputSchema as JsonSchemaObject & Record<string, unknown>);
}

/** `reverieTools(client)` as AI SDK tools, keyed by tool name. */
export function aiSdkTools(client: ReverieClient, options: ReverieToolsOptions = {}): AiSdkTools {
  const { remember, recall, forget, correct } = reverieTools(client, options);
  // Written out per tool: the SDK's `tool()` infers its types from concrete ones only.
  return {
    remember: tool({
      description: remember.description,
      inputSchema: schemaOf(remember),
      execute: (input, call) => remember.execute(input, { signal: call.abortSignal }),
    }),
    recall: tool({
      description: recall.description,
      inputSchema: schemaOf(recall),
      execute: (input, call) => recall.execute(input, { signal: call.abortSignal }),
    }),
    forget: tool({
      description: forget.description,
      inputSchema: schemaOf(forget),
      execute: (input, call) => forget.execute(input, { signal: call.abortSignal }),
    }),
    correct: tool({
      description: correct.description,
      inputSchema: schemaOf(correct),
      execute: (input, call) => correct.execute(input, { signal: call.abortSignal }),
    }),
  };
}
