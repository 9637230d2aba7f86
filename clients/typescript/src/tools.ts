/**
 * Memory for an assistant loop: `remember`, `recall`, `forget` and `correct` as plain
 * tools (a name, a description for the model, a JSON Schema for its input, and an
 * `execute`), for any SDK that takes JSON-Schema tools. `reverie-client/ai-sdk` wraps
 * them for the Vercel AI SDK.
 *
 * What a tool returns is small, plain JSON: what the model needs to answer and to name
 * a memory again (its id and revision), nothing else. A refusal is thrown as the
 * client's typed error; SDKs hand a thrown error back to the model as the tool's
 * failed result.
 */
import type { ReverieClient } from "./client.js";
import { COMPONENTS } from "./generated/schema.js";
import type { MemoryType, RecallItem } from "./models.js";

/** A JSON Schema object, as tool-calling models take them. */
export interface JsonSchemaObject {
  readonly type: "object";
  readonly properties: { readonly [name: string]: Readonly<Record<string, unknown>> };
  readonly required: readonly string[];
  readonly additionalProperties: false;
}

export interface ReverieTool<Input, Output> {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: JsonSchemaObject;
  execute(input: Input, options?: { readonly signal?: AbortSignal | undefined }): Promise<Output>;
}

export interface RememberToolInput {
  readonly statement: string;
  readonly type?: MemoryType;
  readonly subject?: string;
}

export interface RecallToolInput {
  readonly query: string;
}

export interface ForgetToolInput {
  readonly memory_id: string;
  readonly revision: number;
}

export interface CorrectToolInput {
  readonly memory_id: string;
  readonly revision: number;
  readonly statement: string;
}

/** A memory as the tools give it to the model. */
export interface ToolMemory {
  readonly memory_id: string;
  readonly revision: number;
  readonly statement: string;
  readonly type: string;
  readonly subject: string;
  readonly status: string;
}

export interface RecallToolOutput {
  /** Memories that match, best first, with the id and revision that forget and correct
   * take. */
  readonly memories: readonly ToolMemory[];
  /** Past messages of the person that match (when `includeMessages` is on). */
  readonly messages: readonly { readonly text: string; readonly occurred_at: string | null }[];
}

export interface ReverieTools {
  readonly remember: ReverieTool<RememberToolInput, ToolMemory>;
  readonly recall: ReverieTool<RecallToolInput, RecallToolOutput>;
  readonly forget: ReverieTool<ForgetToolInput, { readonly forgotten: string }>;
  readonly correct: ReverieTool<CorrectToolInput, ToolMemory & { readonly replaces: string }>;
}

export interface ReverieToolsOptions {
  /** The most memories (and messages) recall gives the model (8 by default). */
  readonly recallLimit?: number;
  /** The characters of text recall gives the model at most (2000 by default). */
  readonly budgetChars?: number;
  /** Whether recall also gives matching past messages (on by default). */
  readonly includeMessages?: boolean;
}

const MEMORY_TYPES: readonly MemoryType[] = COMPONENTS.MemoryTypeEnum.enum;

const MEMORY_ID = { type: "string", description: "The memory's id, as recall gave it." };
const REVISION = {
  type: "integer",
  description: "The memory's revision, as recall gave it; refused if the memory changed since.",
};

function toolMemory(memory: {
  id: string;
  revision: number | null;
  statement?: string;
  text?: string;
  type: string;
  subject: string;
  status: string;
}): ToolMemory {
  return {
    memory_id: memory.id,
    revision: memory.revision ?? 0,
    statement: memory.statement ?? memory.text ?? "",
    type: memory.type,
    subject: memory.subject,
    status: memory.status,
  };
}

/** The four memory tools of the owner of `client`'s token. */
export function reverieTools(client: ReverieClient, options: ReverieToolsOptions = {}): ReverieTools {
  const { recallLimit = 8, budgetChars = 2000, includeMessages = true } = options;
  return {
    remember: {
      name: "remember",
      description:
        "Save one thing the person told you about themselves, as a short statement in the third person " +
        '("User drinks jasmine tea."). It is kept as their own explicit memory and recalled in later ' +
        "conversations. Saving the same statement again changes nothing. Statements holding a secret " +
        "(a password, a key) or an instruction to the assistant are refused.",
      inputSchema: {
        type: "object",
        properties: {
          statement: { type: "string", description: "The memory, one fact per statement." },
          type: { type: "string", enum: MEMORY_TYPES, description: "What kind of memory it is (fact if unsure)." },
          subject: {
            type: "string",
            description: 'What it is about, as a short key ("pref:tea", "person:sister"), to group memories.',
          },
        },
        required: ["statement"],
        additionalProperties: false,
      },
      async execute(input, call = {}) {
        const memory = await client.remember(input.statement, {
          ...(input.type === undefined ? {} : { type: input.type }),
          ...(input.subject === undefined ? {} : { subject: input.subject }),
          signal: call.signal,
        });
        return toolMemory(memory);
      },
    },
    recall: {
      name: "recall",
      description:
        "Look up what you know about the person: the memories (and, if any, past messages) that best match " +
        "the query, best first. Each memory comes with the memory_id and revision that forget and correct " +
        "need. Reads only; changes nothing.",
      inputSchema: {
        type: "object",
        properties: {
          query: { type: "string", description: "What to look for, in a few words." },
        },
        required: ["query"],
        additionalProperties: false,
      },
      async execute(input, call = {}) {
        const found = await client.recall(input.query, {
          limit: recallLimit,
          budget_chars: budgetChars,
          ...(includeMessages ? { include: ["messages"] } : {}),
          signal: call.signal,
        });
        const memories = found.items.filter((item) => item.kind === "belief").map((item) => toolMemory(item));
        const messages = found.items
          .filter((item: RecallItem) => item.kind === "message")
          .map((item) => ({ text: item.text, occurred_at: item.occurred_at }));
        return { memories, messages };
      },
    },
    forget: {
      name: "forget",
      description:
        "Erase one memory for good, when the person asks you to forget it: its text is deleted, it is no " +
        "longer recalled, and it is not learnt again from the same messages. Cannot be undone. Takes the " +
        "memory_id and revision that recall gave.",
      inputSchema: {
        type: "object",
        properties: { memory_id: MEMORY_ID, revision: REVISION },
        required: ["memory_id", "revision"],
        additionalProperties: false,
      },
      async execute(input, call = {}) {
        const deleted = await client.memoryDelete(input.memory_id, {
          expected_revision: input.revision,
          signal: call.signal,
        });
        return { forgotten: deleted.id };
      },
    },
    correct: {
      name: "correct",
      description:
        "Replace one memory that is wrong or out of date with the corrected statement, when the person " +
        "corrects you. The corrected memory is recalled from then on; the old one is kept only in its " +
        "history. Takes the memory_id and revision that recall gave.",
      inputSchema: {
        type: "object",
        properties: {
          memory_id: MEMORY_ID,
          revision: REVISION,
          statement: { type: "string", description: "The corrected memory, as a short statement." },
        },
        required: ["memory_id", "revision", "statement"],
        additionalProperties: false,
      },
      async execute(input, call = {}) {
        const corrected = await client.memoryCorrect(input.memory_id, {
          expected_revision: input.revision,
          statement: input.statement,
          signal: call.signal,
        });
        return { ...toolMemory(corrected), replaces: input.memory_id };
      },
    },
  };
}
