/**
 * The API's resources and inputs, named: each is a component of the OpenAPI document
 * the service serves (see `generated/api.ts`). Ids are strings (UUIDs as the API
 * writes them); times are ISO-8601 strings.
 */
import type { components, operations } from "./generated/api.js";

type Schemas = components["schemas"];

// -- the closed sets of values the schema names -----------------------------------------
export type MemoryType = Schemas["MemoryTypeEnum"];
export type MessageType = Schemas["MessageTypeEnum"];
export type PartType = Schemas["PartTypeEnum"];
export type Polarity = Schemas["PolarityEnum"];
export type Portability = Schemas["PortabilityEnum"];
export type Sensitivity = Schemas["SensitivityEnum"];
/** The statuses recall returns (and filters on). */
export type LiveStatus = Schemas["LiveStatusEnum"];
export type RecallInclude = Schemas["IncludeEnum"];
export type RecallItemKind = Schemas["RecallItemOutputKindEnum"];
export type ContextPosition = Schemas["ContextPositionEnum"];
export type DerivedKind = Schemas["DerivedKindEnum"];
export type DerivedStatus = Schemas["StatusEnum"];
export type ReviewState = Schemas["ReviewStateEnum"];
export type OperationKind = Schemas["OperationKindEnum"];
export type OperationState = Schemas["OperationStateEnum"];
export type ChallengeState = Schemas["ChallengeStateEnum"];

// -- resources ---------------------------------------------------------------------------
export type Session = Schemas["SessionOutput"];
export type Part = Schemas["PartOutput"];
export type Event = Schemas["EventOutput"];
export type Run = Schemas["RunOutput"];
export type Source = Schemas["SourceOutput"];
export type Memory = Schemas["MemoryOutput"];
export type MemoryPage = Schemas["MemoryPageOutput"];
export type Change = Schemas["ChangeOutput"];
export type History = Schemas["HistoryOutput"];
export type Recall = Schemas["RecallOutput"];
export type RecallItem = Schemas["RecallItemOutput"];
export type Challenge = Schemas["ChallengeOutput"];
export type ChallengePage = Schemas["ChallengePageOutput"];
export type Token = Schemas["TokenOutput"];
export type AccessRecord = Schemas["AccessRecordOutput"];
export type ErasureRequest = Schemas["ErasureRequestOutput"];
export type Erasure = Schemas["ErasureOutput"];
export type Derived = Schemas["DerivedOutput"];
export type DerivedControl = Schemas["DerivedControlOutput"];
export type Operation = Schemas["OperationOutput"];
export type OperationPage = Schemas["OperationPageOutput"];
export type OperationDetail = Schemas["OperationDetailOutput"];
export type UndoPreview = Schemas["UndoPreviewOutput"];
export type Undo = Schemas["UndoOutput"];
export type SummaryJournal = Schemas["SummaryJournalOutput"];
export type ApiErrorBody = Schemas["Error"];

// -- inputs --------------------------------------------------------------------------------
export type SessionCreateInput = Schemas["SessionCreateInputRequest"];
export type PartInput = Schemas["PartInputRequest"];
export type EventAppendInput = Schemas["EventAppendInputRequest"];
export type RememberInput = Schemas["MemoryRememberInputRequest"];
export type CorrectInput = Schemas["MemoryCorrectInputRequest"];
export type RecallInput = Schemas["RecallInputRequest"];
export type RunFailInput = Schemas["RunFailInputRequest"];
export type PromoteInput = Schemas["PromoteInputRequest"];

/** The query parameters of an operation, as the schema declares them. */
export type QueryOf<Op extends keyof operations> = operations[Op]["parameters"] extends { query?: infer Q }
  ? NonNullable<Q>
  : never;

/** A filter that takes one value or several (sent comma-separated). */
export type OneOrMany<T extends string = string> = T | readonly T[];
