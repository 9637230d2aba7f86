/**
 * Reverie's API for TypeScript: `ReverieClient` (a method per route, iterators,
 * `conversation()`), its typed errors, and the API's models.
 */
export {
  type AccessListOptions,
  type ChallengeListOptions,
  type ClientOptions,
  type CorrectOptions,
  type EventAppendOptions,
  type MemoryListOptions,
  METHODS,
  type OperationId,
  type OperationListOptions,
  type RecallOptions,
  type RememberOptions,
  type RequestOptions,
  type Revision,
  ReverieClient,
  type WriteOptions,
} from "./client.js";
export { Conversation, type MessageFields, type Recorded, Turn } from "./conversation.js";
export * from "./errors.js";
export { type Call, DEFAULT_RETRIES, newIdempotencyKey, type QueryValue, type Retries, VERSION } from "./http.js";
export type * from "./models.js";
export { ChangeFeed, EPOCH } from "./pagination.js";
export {
  type CorrectToolInput,
  type ForgetToolInput,
  type JsonSchemaObject,
  type RecallToolInput,
  type RecallToolOutput,
  type RememberToolInput,
  type ReverieTool,
  type ReverieTools,
  reverieTools,
  type ReverieToolsOptions,
  type ToolMemory,
} from "./tools.js";
