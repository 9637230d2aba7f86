// An assistant turn with Reverie's memory tools in the Vercel AI SDK. A scripted model
// stands in for a provider's, so it runs as it is: against `make run`, with the token it
// printed (REVERIE_URL defaults to http://127.0.0.1:8000):
//
//   npm run build:example
//   REVERIE_URL=http://127.0.0.1:${PORT:-8000} REVERIE_TOKEN=$TOKEN node .build/examples/ai-sdk-agent.js
//
// With a real model, replace `model` (say, `openai("gpt-4.1-mini")` from @ai-sdk/openai):
// the tools and the turn stay as they are.
import { generateText, stepCountIs } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { ReverieClient } from "reverie-client";
import { aiSdkTools } from "reverie-client/ai-sdk";

type Step = Awaited<ReturnType<MockLanguageModelV3["doGenerate"]>>;

const USAGE: Step["usage"] = {
  inputTokens: { total: 0, noCache: 0, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 0, text: 0, reasoning: 0 },
};

function callTool(toolName: string, input: object): Step {
  return {
    content: [{ type: "tool-call", toolCallId: `call-${toolName}`, toolName, input: JSON.stringify(input) }],
    finishReason: { unified: "tool-calls", raw: undefined },
    usage: USAGE,
    warnings: [],
  };
}

function answer(text: string): Step {
  return {
    content: [{ type: "text", text }],
    finishReason: { unified: "stop", raw: undefined },
    usage: USAGE,
    warnings: [],
  };
}

// What the scripted model does, one step per call: look up what it knows, keep what the
// person just said, then answer.
const script: Step[] = [
  callTool("recall", { query: "tea the person drinks" }),
  callTool("remember", { statement: "User drinks jasmine tea.", type: "preference", subject: "pref:tea" }),
  answer("Jasmine tea it is: I will remember that."),
];
const model = new MockLanguageModelV3({
  doGenerate: async () => {
    const step = script.shift();
    if (step === undefined) throw new Error("the script has no more steps");
    return step;
  },
});

const client = new ReverieClient(); // REVERIE_URL and REVERIE_TOKEN
const said = "I only drink jasmine tea, by the way.";
const conversation = await client.conversation(process.env.EXAMPLE_CONVERSATION ?? "ai-sdk-example");

// The turn appends the person's message, runs the model with the memory tools, appends
// its answer and completes the run (or fails it if the model throws).
const result = await conversation.turn(said, async (turn) => {
  const generated = await generateText({
    model,
    tools: aiSdkTools(client),
    stopWhen: stepCountIs(5),
    system: "You are a helpful assistant with a long-term memory of the person.",
    prompt: said,
  });
  await turn.reply(generated.text);
  return generated;
});

for (const step of result.steps) {
  for (const call of step.toolCalls) console.log(`tool ${call.toolName} ${JSON.stringify(call.input)}`);
}
console.log(`assistant: ${result.text}`);
