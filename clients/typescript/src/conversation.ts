/**
 * A conversation as an assistant runtime drives it: one session per conversation of
 * yours, and one run per turn.
 *
 * A turn appends the person's message, starts a run, lets the assistant recall and
 * answer, and completes the run (or fails it, if the answering threw). Completing or
 * failing a run is what asks the service to form memories: formation then runs in the
 * background once the conversation has been quiet for the service's idle window (30 s
 * by default), or at once when the session is closed.
 */
import type { ReverieClient, RecallOptions, RequestOptions } from "./client.js";
import type { Event, EventAppendInput, Recall, Run, Session } from "./models.js";

/** The fields of a message besides its text. */
export type MessageFields = Omit<EventAppendInput, "parts" | "type">;

/** What `Conversation.record` wrote: the message, the reply (if any) and the run. */
export interface Recorded {
  readonly session: Session;
  readonly message: Event;
  readonly reply: Event | null;
  readonly run: Run;
}

function failureCode(error: unknown): string {
  const name = error instanceof Error ? error.name : typeof error;
  return name.slice(0, 100);
}

/** One turn of a conversation: the person's message and the run answering it. */
export class Turn {
  constructor(
    readonly conversation: Conversation,
    readonly text: string,
    readonly message: Event,
    public run: Run,
  ) {}

  private get client(): ReverieClient {
    return this.conversation.client;
  }

  /** Recall for this turn: by default, with the person's message as the query. */
  recall(query?: string, options: RecallOptions = {}): Promise<Recall> {
    return this.client.recall(query ?? this.text, options);
  }

  /** Append the assistant's answer to the conversation. */
  reply(text: string, fields: MessageFields & RequestOptions = {}): Promise<Event> {
    return this.client.eventAppend(this.conversation.session.id, text, {
      ...fields,
      type: "assistant.message.created",
    });
  }
}

/** A conversation of the owner: the session whose `external_id` is your own id for it
 * (opened on first use, found again afterwards). */
export class Conversation {
  constructor(
    readonly client: ReverieClient,
    public session: Session,
  ) {}

  /**
   * Run one turn: append `text`, start a run, call `answer(turn)`, then complete the
   * run, or fail it with the error's name and throw the error again when `answer`
   * throws. Resolves to what `answer` resolved to.
   */
  async turn<T>(text: string, answer: (turn: Turn) => Promise<T> | T, fields: MessageFields = {}): Promise<T> {
    const sessionId = this.session.id;
    const message = await this.client.eventAppend(sessionId, text, fields);
    const turn = new Turn(this, text, message, await this.client.runCreate(sessionId));
    let result: T;
    try {
      result = await answer(turn);
    } catch (error) {
      turn.run = await this.client.runFail(turn.run.id, { error_code: failureCode(error) });
      throw error;
    }
    turn.run = await this.client.runComplete(turn.run.id);
    return result;
  }

  /** A whole turn at once: append the message (and the reply), start and complete the
   * run. */
  async record(text: string, reply?: string, fields: MessageFields = {}): Promise<Recorded> {
    let said: Turn | undefined;
    let answer: Event | null = null;
    await this.turn(
      text,
      async (turn) => {
        said = turn;
        if (reply !== undefined) answer = await turn.reply(reply);
      },
      fields,
    );
    // `turn` resolves only after running the callback, which set `said`.
    const turn = said as Turn;
    return { session: this.session, message: turn.message, reply: answer, run: turn.run };
  }

  /** Close the session: formation consolidates it without waiting for quiet. */
  async close(): Promise<Session> {
    this.session = await this.client.sessionClose(this.session.id);
    return this.session;
  }
}
