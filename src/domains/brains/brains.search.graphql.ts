/** The GraphQL types of a search's answer (hits, how they were ranked) and of the embedding index status. */
import { builder } from '../../schema/builder.js';
import { addAgentLink } from '../agents/agents.graphql.js';
import { BrainMemoryRef } from './brains.memories.graphql.js';
import type { BrainSearchHit, BrainSearchResult } from './brains.search.js';

const RetrievalModeEnum = builder.enumType('BrainRetrievalMode', {
  description: 'How a search ranked its hits',
  values: {
    LEXICAL: { description: 'Word matches only (embeddings not configured or unavailable: see fallback)' },
    HYBRID: { description: 'Word matches and cosine similarity of embeddings, merged' },
  },
});
const RetrievalFallbackEnum = builder.enumType('BrainRetrievalFallback', {
  description: 'Why a search that would have been hybrid answered with lexical results',
  values: {
    EMBEDDING_UNAVAILABLE: { description: 'Embeddings are configured but the provider failed or timed out: these are lexical results' },
    VECTOR_UNAVAILABLE: { description: 'Embeddings are configured but this database has no pgvector: these are lexical results' },
  },
});
const MatchKindEnum = builder.enumType('BrainMatchKind', {
  description: 'What made a memory a hit',
  values: {
    LEXICAL: { description: 'At least one query word occurs in title or content' },
    EMBEDDING: { description: 'Its embedding is similar to the query (cosine similarity above zero)' },
  },
});

const RetrievalRef = builder.objectRef<BrainSearchResult['retrieval']>('BrainRetrieval').implement({
  description: 'How a search ranked, and why it fell back to lexical when it did',
  fields: (t) => ({
    mode: t.field({ type: RetrievalModeEnum, description: 'Lexical or hybrid ranking', resolve: (r) => r.mode }),
    fallback: t.field({ type: RetrievalFallbackEnum, nullable: true, description: 'Set when a hybrid search answered lexically', resolve: (r) => r.fallback }),
    reason: t.exposeString('reason', { nullable: true, description: 'The provider or database problem behind the fallback, for operators' }),
  }),
});

const SearchHitRef = builder.objectRef<BrainSearchHit>('BrainSearchHit').implement({
  description: 'One memory found by a search, with how it matched',
  fields: (t) => ({
    memory: t.field({ type: BrainMemoryRef, description: 'The memory found', resolve: (h) => h.memory }),
    matchedBy: t.field({ type: [MatchKindEnum], description: 'What matched this memory', resolve: (h) => h.matchedBy }),
    matchedTerms: t.exposeStringList('matchedTerms', { description: 'Query terms found (case-insensitively) in title or content' }),
    lexicalScore: t.exposeFloat('lexicalScore', {
      description: 'Per query word: 2 for a title match plus 1 for a content match; with several words, 3 more when the whole phrase matches. 0 for embedding-only hits',
    }),
    similarity: t.exposeFloat('similarity', { nullable: true, description: 'Cosine similarity of the query and memory embeddings (-1 to 1); null when not compared' }),
    score: t.exposeFloat('score', { description: 'The ranking score: lexicalScore in lexical mode; similarity + 0.3 × lexicalScore / best lexicalScore in hybrid mode' }),
  }),
});

export const BrainSearchResultRef = builder.objectRef<BrainSearchResult>('BrainSearchResult').implement({
  description: 'The hits of one search, best first',
  fields: (t) => ({
    agentId: t.exposeString('agentId', { description: 'The agent whose memories were searched' }),
    query: t.exposeString('query', { description: 'The query, trimmed' }),
    retrieval: t.field({ type: RetrievalRef, description: 'How the hits were ranked', resolve: (r) => r.retrieval }),
    hits: t.field({ type: [SearchHitRef], description: 'At most `first` hits, by score, then updatedAt newest first, then memoryId', resolve: (r) => r.hits }),
  }),
});
addAgentLink(BrainSearchResultRef, (r) => r.agentId);

export const EmbeddingStatusRef = builder.simpleObject('BrainEmbeddingStatus', {
  description: "The embedding index of one agent's memories",
  fields: (t) => ({
    agentId: t.string({ description: 'The agent' }),
    enabled: t.boolean({ description: 'An embedding provider is configured (BURROW_EMBEDDINGS_*)' }),
    model: t.string({ nullable: true, description: 'The embedding model; null when not enabled' }),
    dimensions: t.int({ nullable: true, description: "Dimensions of the model's vectors; null when not enabled" }),
    vectorSearch: t.boolean({ description: 'Embedding ranking can run (enabled and pgvector present)' }),
    reason: t.string({ nullable: true, description: 'Why search is lexical only, when it is' }),
    indexed: t.int({ description: 'Live memories with an embedding of their current revision' }),
    pending: t.int({ description: 'Live memories whose current revision has not been tried yet' }),
    failed: t.int({ description: 'Live memories whose current revision failed to embed; they are retried with backoff until they succeed' }),
    backlog: t.int({ description: 'Live memories without a usable embedding of their current revision: pending + failed' }),
    nextRetryAt: t.field({
      type: 'DateTime',
      nullable: true,
      description: 'When the earliest failed memory is tried again (a time already past: the next indexer pass); null when none failed',
    }),
    lastError: t.string({ nullable: true, description: "The newest failure's message, for operators; null when none failed" }),
  }),
});
