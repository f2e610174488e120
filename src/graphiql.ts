/**
 * GraphiQL served from the server's own assets: @graphql-yoga/render-graphiql bundles GraphiQL,
 * its CSS and its editor workers into one HTML page, so the page loads with no request leaving
 * the machine (Yoga's default page takes its scripts from a CDN). The header editor starts with
 * the Authorization header a request needs; the tabs hold a few operations to start from.
 */
import type { GraphiQLOptions } from 'graphql-yoga';

const headers = JSON.stringify({ Authorization: 'Bearer ' }, null, 2);

const EXAMPLES = [
  `# Your token goes after "Bearer " in Headers (below); then run.
query Viewer {
  viewer { principal tokenName agentId }
  agents(first: 10) { edges { node { agentId name lastEventSequence } } }
}`,
  `# Operators create agents; each starts with six empty profile documents.
mutation CreateAgent {
  createAgent(input: { agentId: "hatchet", name: "Hatchet" }) {
    __typename
    ... on CreateAgentSuccess { agent { agentId name } }
    ... on Error { code message }
  }
}`,
  `# Save a Brain memory for an agent (operators name the agent; agent tokens leave agentId out).
mutation BrainSave {
  brainSave(input: { agentId: "hatchet", title: "Deploys", content: "Deploys run from the release branch." }) {
    __typename
    ... on BrainSaveSuccess { memory { id title revision } }
    ... on Error { code message }
  }
}

query BrainSearch {
  brainSearch(agentId: "hatchet", query: "deploys release") {
    hits { memory { id title content } matchedTerms }
  }
}`,
  `# Every change of one agent, replayed from the start of its log, then live (server-sent events).
subscription AgentEvents {
  agentEvents(agentId: "hatchet", after: 0) { sequence stream type subjectId occurredAt }
}`,
];

export const graphiqlOptions: GraphiQLOptions = {
  title: 'Burrow',
  // Subscriptions over SSE on /graphql: a plain HTTP request, so the Authorization header of the
  // header editor goes with it and a refusal comes back as an error in the result pane. Over
  // graphql-ws GraphiQL sends the header editor's headers nowhere (its connection_init is empty):
  // every subscription was refused and the pane spun.
  subscriptionsProtocol: 'SSE',
  // GraphiQL would send an SSE subscription as a GET; the server takes operations as POSTs only.
  method: 'POST',
  headers,
  defaultHeaders: headers,
  defaultQuery: EXAMPLES[0],
  defaultTabs: EXAMPLES.map((query) => ({ query, headers })),
};

let page: Promise<string> | null = null;
/**
 * Yoga's `renderGraphiQL`: the page is about 9 MB of inlined assets, rendered once, and its
 * package is loaded at the first page asked for rather than at every server start.
 */
export const renderBurrowGraphiQL = (options: GraphiQLOptions): Promise<string> =>
  (page ??= import('@graphql-yoga/render-graphiql').then(({ renderGraphiQL }) => renderGraphiQL(options)));
