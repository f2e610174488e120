/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type { DocumentNode } from 'graphql';
export type ApplyPreferenceLearningInput = {
  agentId: string;
  /** The new PREFERENCES document */
  content: string;
  expectedRevision: number;
  reason: string;
  /** Preference signals this change applies */
  signalIds?: Array<string> | null | undefined;
};

export type CreateAgentInput = {
  /** a-z, 0-9, "_" and "-", at most 63; generated when absent */
  id?: string | null | undefined;
  name: string;
};

export type PrincipalKind =
  | 'AGENT'
  | 'OPERATOR';

export type ProfileDocumentInput = {
  content: string;
  /** When given, the replacement is refused unless the document is at this revision */
  expectedRevision?: number | null | undefined;
  kind: ProfileKind;
};

export type ProfileKind =
  | 'DREAM_MEMORY'
  | 'ORIENTATION'
  | 'PREFERENCES'
  | 'RULES'
  | 'SOUL'
  | 'TOOLS';

export type ReplaceProfileInput = {
  agentId: string;
  documents: Array<ProfileDocumentInput>;
};

export type SetTiddleCardTtlInput = {
  agentId: string;
  /** 1 to 36,500 */
  days: number;
};

export type TiddleAppendResidueInput = {
  /** 1 to 8 excerpts */
  excerpts: Array<TiddleExcerptInput>;
  /** May only repeat the runtime scope */
  project?: string | null | undefined;
  /** The terminal turn reference (1 to 200 characters); the same reference replaces */
  turnRef: string;
};

export type TiddleExcerptInput = {
  /** user, assistant, tool or system */
  role: string;
  /** 1 to 1000 characters */
  text: string;
};

export type TiddlePassStatus =
  | 'FAILED'
  | 'SKIPPED'
  | 'SUCCEEDED';

export type TiddleRunPassInput = {
  agentId: string;
  /** One scope; every scope of the agent when absent */
  project?: string | null | undefined;
};

export type UpdateProfileDocumentInput = {
  agentId: string;
  content: string;
  expectedRevision: number;
  kind: ProfileKind;
};

export type ProfileDocumentFieldsFragment = { id: string, agentId: string, kind: ProfileKind, content: string, revision: number, updatedAt: string, reference: string, updatedBy: { kind: PrincipalKind, id: string } };

type ErrorFields_Forbidden_Fragment = { __typename: 'Forbidden', message: string, code: string };

type ErrorFields_NotFound_Fragment = { __typename: 'NotFound', resource: string, id: string, message: string, code: string };

type ErrorFields_RevisionConflict_Fragment = { __typename: 'RevisionConflict', expectedRevision: number, currentRevision: number, currentContent: string | null, currentValue: unknown, message: string, code: string };

type ErrorFields_ValidationFailed_Fragment = { __typename: 'ValidationFailed', field: string, limit: number | null, message: string, code: string };

export type ErrorFieldsFragment =
  | ErrorFields_Forbidden_Fragment
  | ErrorFields_NotFound_Fragment
  | ErrorFields_RevisionConflict_Fragment
  | ErrorFields_ValidationFailed_Fragment
;

export type ViewerQueryVariables = Exact<{ [key: string]: never; }>;


export type ViewerQuery = { viewer: { principal: PrincipalKind, tokenName: string, agentId: string | null, scope: string | null, sessionId: string | null, conversationId: string | null, agent: { agentId: string, name: string } | null } };

export type AgentQueryVariables = Exact<{
  id: string;
}>;


export type AgentQuery = { agent: { id: string, agentId: string, name: string, createdAt: string, lastEventSequence: number, profile: Array<{ id: string, agentId: string, kind: ProfileKind, content: string, revision: number, updatedAt: string, reference: string, updatedBy: { kind: PrincipalKind, id: string } }> } | null };

export type AgentsQueryVariables = Exact<{
  first?: number | null | undefined;
  after?: string | null | undefined;
}>;


export type AgentsQuery = { agents: { edges: Array<{ cursor: string, node: { id: string, agentId: string, name: string, profile: Array<{ kind: ProfileKind, content: string }> } }>, pageInfo: { hasNextPage: boolean, endCursor: string | null } } };

export type NodeQueryVariables = Exact<{
  id: string | number;
}>;


export type NodeQuery = { node:
    | { __typename: 'Agent', agentId: string, name: string, id: string }
    | { __typename: 'ProfileDocument', agentId: string, kind: ProfileKind, content: string, revision: number, id: string }
   | null };

export type ProfileDocumentQueryVariables = Exact<{
  agentId: string;
  kind: ProfileKind;
  revisions?: number | null | undefined;
}>;


export type ProfileDocumentQuery = { profileDocument: { id: string, agentId: string, kind: ProfileKind, content: string, revision: number, updatedAt: string, reference: string, revisions: Array<{ revision: number, content: string, reason: string, createdAt: string, actor: { kind: PrincipalKind, id: string } }>, updatedBy: { kind: PrincipalKind, id: string } } | null };

export type PreferenceLearningQueryVariables = Exact<{
  agentId: string;
}>;


export type PreferenceLearningQuery = { preferenceLearning: { appliedCount: number, lastAppliedRevision: number | null, lastAppliedAt: string | null, audit: Array<{ kind: ProfileKind, action: string, fromRevision: number, toRevision: number, detail: unknown, createdAt: string, actor: { kind: PrincipalKind, id: string } }>, signals: Array<{ id: string, source: string, project: string | null, statement: string, evidence: unknown, status: string, createdAt: string }> } };

export type CreateAgentMutationVariables = Exact<{
  input: CreateAgentInput;
}>;


export type CreateAgentMutation = { createAgent:
    | { __typename: 'CreateAgentSuccess', agent: { id: string, agentId: string, name: string, createdAt: string, profile: Array<{ id: string, agentId: string, kind: ProfileKind, content: string, revision: number, updatedAt: string, reference: string, updatedBy: { kind: PrincipalKind, id: string } }> } }
    | { __typename: 'Forbidden', message: string, code: string }
    | { __typename: 'NotFound', resource: string, id: string, message: string, code: string }
    | { __typename: 'RevisionConflict', expectedRevision: number, currentRevision: number, currentContent: string | null, currentValue: unknown, message: string, code: string }
    | { __typename: 'ValidationFailed', field: string, limit: number | null, message: string, code: string }
   };

export type UpdateProfileDocumentMutationVariables = Exact<{
  input: UpdateProfileDocumentInput;
}>;


export type UpdateProfileDocumentMutation = { updateProfileDocument:
    | { __typename: 'Forbidden', message: string, code: string }
    | { __typename: 'NotFound', resource: string, id: string, message: string, code: string }
    | { __typename: 'RevisionConflict', expectedRevision: number, currentRevision: number, currentContent: string | null, currentValue: unknown, message: string, code: string }
    | { __typename: 'UpdateProfileDocumentSuccess', document: { id: string, agentId: string, kind: ProfileKind, content: string, revision: number, updatedAt: string, reference: string, updatedBy: { kind: PrincipalKind, id: string } } }
    | { __typename: 'ValidationFailed', field: string, limit: number | null, message: string, code: string }
   };

export type ReplaceProfileMutationVariables = Exact<{
  input: ReplaceProfileInput;
}>;


export type ReplaceProfileMutation = { replaceProfile:
    | { __typename: 'Forbidden', message: string, code: string }
    | { __typename: 'NotFound', resource: string, id: string, message: string, code: string }
    | { __typename: 'ReplaceProfileSuccess', documents: Array<{ id: string, agentId: string, kind: ProfileKind, content: string, revision: number, updatedAt: string, reference: string, updatedBy: { kind: PrincipalKind, id: string } }> }
    | { __typename: 'RevisionConflict', expectedRevision: number, currentRevision: number, currentContent: string | null, currentValue: unknown, message: string, code: string }
    | { __typename: 'ValidationFailed', field: string, limit: number | null, message: string, code: string }
   };

export type ApplyPreferenceLearningMutationVariables = Exact<{
  input: ApplyPreferenceLearningInput;
}>;


export type ApplyPreferenceLearningMutation = { applyPreferenceLearning:
    | { __typename: 'ApplyPreferenceLearningSuccess', document: { id: string, agentId: string, kind: ProfileKind, content: string, revision: number, updatedAt: string, reference: string, updatedBy: { kind: PrincipalKind, id: string } } }
    | { __typename: 'Forbidden', message: string, code: string }
    | { __typename: 'NotFound', resource: string, id: string, message: string, code: string }
    | { __typename: 'RevisionConflict', expectedRevision: number, currentRevision: number, currentContent: string | null, currentValue: unknown, message: string, code: string }
    | { __typename: 'ValidationFailed', field: string, limit: number | null, message: string, code: string }
   };

export type AgentEventFieldsFragment = { sequence: number, agentId: string, stream: string, type: string, subjectId: string, project: string | null, occurredAt: string, payload: unknown };

export type AgentEventsSubscriptionVariables = Exact<{
  agentId: string;
  after?: number | null | undefined;
}>;


export type AgentEventsSubscription = { agentEvents: { sequence: number, agentId: string, stream: string, type: string, subjectId: string, project: string | null, occurredAt: string, payload: unknown } };

export type RollingCardFieldsFragment = { agentId: string, project: string, cardId: string, title: string, body: string, evidence: Array<string>, card: unknown, revision: number, createdAt: string, updatedAt: string, refreshedAt: string, expiresAt: string };

export type TiddlePassOutcomeFieldsFragment = { agentId: string, project: string, passId: string, kind: string, trigger: string, status: TiddlePassStatus, error: string | null, residueConsidered: number, created: Array<string>, updated: Array<string>, expired: Array<string>, preferenceSignals: Array<string>, noops: number, nextRunAt: string | null, at: string, rejected: Array<{ reason: string, proposal: unknown }> };

export type TiddleAppendResidueMutationVariables = Exact<{
  input: TiddleAppendResidueInput;
}>;


export type TiddleAppendResidueMutation = { tiddleAppendResidue:
    | { __typename: 'TiddleAppendResidueSuccess', append: { pruned: number, replaced: boolean, entry: { agentId: string, project: string, reference: string, sessionId: string | null, createdAt: string, excerpts: Array<{ role: string, text: string }> } } }
    | { __typename: 'ValidationFailed', field: string, limit: number | null, message: string, code: string }
   };

export type TiddleRunPassMutationVariables = Exact<{
  input: TiddleRunPassInput;
}>;


export type TiddleRunPassMutation = { tiddleRunPass:
    | { __typename: 'NotFound', resource: string, id: string, message: string, code: string }
    | { __typename: 'TiddleRunPassSuccess', outcomes: Array<{ agentId: string, project: string, passId: string, kind: string, trigger: string, status: TiddlePassStatus, error: string | null, residueConsidered: number, created: Array<string>, updated: Array<string>, expired: Array<string>, preferenceSignals: Array<string>, noops: number, nextRunAt: string | null, at: string, rejected: Array<{ reason: string, proposal: unknown }> }> }
    | { __typename: 'ValidationFailed', field: string, limit: number | null, message: string, code: string }
   };

export type SetTiddleCardTtlMutationVariables = Exact<{
  input: SetTiddleCardTtlInput;
}>;


export type SetTiddleCardTtlMutation = { setTiddleCardTtl:
    | { __typename: 'Forbidden', message: string, code: string }
    | { __typename: 'NotFound', resource: string, id: string, message: string, code: string }
    | { __typename: 'RevisionConflict', expectedRevision: number, currentRevision: number, currentContent: string | null, currentValue: unknown, message: string, code: string }
    | { __typename: 'SetTiddleCardTtlSuccess', setting: { agentId: string, cardTtlDays: number, expiredCards: Array<string> } }
    | { __typename: 'ValidationFailed', field: string, limit: number | null, message: string, code: string }
   };

export type RollingCardsQueryVariables = Exact<{
  agentId?: string | null | undefined;
  project?: string | null | undefined;
  first?: number | null | undefined;
  after?: string | null | undefined;
}>;


export type RollingCardsQuery = { rollingCards: { edges: Array<{ cursor: string, node: { agentId: string, project: string, cardId: string, title: string, body: string, evidence: Array<string>, card: unknown, revision: number, createdAt: string, updatedAt: string, refreshedAt: string, expiresAt: string } }>, pageInfo: { hasNextPage: boolean, endCursor: string | null } } };

export type MemoryRollingSearchQueryVariables = Exact<{
  query: string;
  project?: string | null | undefined;
  agentId?: string | null | undefined;
  limit?: number | null | undefined;
}>;


export type MemoryRollingSearchQuery = { memoryRollingSearch: { owner: string, entersPrompt: boolean, agentId: string, project: string, query: string, cards: Array<{ agentId: string, project: string, cardId: string, title: string, body: string, evidence: Array<string>, card: unknown, revision: number, createdAt: string, updatedAt: string, refreshedAt: string, expiresAt: string }> } };

export type TiddleStatusQueryVariables = Exact<{
  agentId: string;
}>;


export type TiddleStatusQuery = { tiddleStatus: { agentId: string, cardTtlDays: number, lastSynthesisDate: string | null, lastSynthesisAt: string | null, schedulerEnabled: boolean, proposer: string, scopes: Array<{ project: string, nextRunAt: string, lastSuccessAt: string | null, lastAttemptAt: string | null, lastError: string | null, lastErrorAt: string | null, consecutiveFailures: number, lastPassId: string | null }> } };

export type TiddleResidueQueryVariables = Exact<{
  agentId: string;
  project: string;
  first?: number | null | undefined;
}>;


export type TiddleResidueQuery = { tiddleResidue: Array<{ agentId: string, project: string, reference: string, sessionId: string | null, createdAt: string, excerpts: Array<{ role: string, text: string }> }> };

export type TiddleHistoryQueryVariables = Exact<{
  agentId: string;
  project?: string | null | undefined;
  first?: number | null | undefined;
}>;


export type TiddleHistoryQuery = { tiddleHistory: Array<{ project: string, passId: string, createdAt: string, payload: unknown }> };

export type AmbientContinuityQueryVariables = Exact<{
  agentId?: string | null | undefined;
  project?: string | null | undefined;
}>;


export type AmbientContinuityQuery = { ambientContinuity: { agentId: string, project: string, workingRecords: Array<unknown>, entersPrompt: boolean, rollingCards: Array<{ agentId: string, project: string, cardId: string, title: string, body: string, evidence: Array<string>, card: unknown, revision: number, createdAt: string, updatedAt: string, refreshedAt: string, expiresAt: string }> } };

export type RollingCardEventsSubscriptionVariables = Exact<{
  agentId: string;
  project: string;
  after?: number | null | undefined;
}>;


export type RollingCardEventsSubscription = { rollingCardEvents: { sequence: number, agentId: string, stream: string, type: string, subjectId: string, project: string | null, occurredAt: string, payload: unknown } };

export type TiddleStatusEventsSubscriptionVariables = Exact<{
  agentId: string;
  after?: number | null | undefined;
}>;


export type TiddleStatusEventsSubscription = { tiddleStatusEvents: { sequence: number, agentId: string, stream: string, type: string, subjectId: string, project: string | null, occurredAt: string, payload: unknown } };

export const ProfileDocumentFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ProfileDocumentFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ProfileDocument"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"agentId"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"content"}},{"kind":"Field","name":{"kind":"Name","value":"revision"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedBy"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"id"}}]}},{"kind":"Field","name":{"kind":"Name","value":"reference"}}]}}]} as unknown as DocumentNode;
export const ErrorFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ErrorFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ValidationFailed"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"field"}},{"kind":"Field","name":{"kind":"Name","value":"limit"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"RevisionConflict"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"expectedRevision"}},{"kind":"Field","name":{"kind":"Name","value":"currentRevision"}},{"kind":"Field","name":{"kind":"Name","value":"currentContent"}},{"kind":"Field","name":{"kind":"Name","value":"currentValue"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"NotFound"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"resource"}},{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}}]} as unknown as DocumentNode;
export const AgentEventFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"AgentEventFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"AgentEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"sequence"}},{"kind":"Field","name":{"kind":"Name","value":"agentId"}},{"kind":"Field","name":{"kind":"Name","value":"stream"}},{"kind":"Field","name":{"kind":"Name","value":"type"}},{"kind":"Field","name":{"kind":"Name","value":"subjectId"}},{"kind":"Field","name":{"kind":"Name","value":"project"}},{"kind":"Field","name":{"kind":"Name","value":"occurredAt"}},{"kind":"Field","name":{"kind":"Name","value":"payload"}}]}}]} as unknown as DocumentNode;
export const RollingCardFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RollingCardFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"RollingCard"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"agentId"}},{"kind":"Field","name":{"kind":"Name","value":"project"}},{"kind":"Field","name":{"kind":"Name","value":"cardId"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"body"}},{"kind":"Field","name":{"kind":"Name","value":"evidence"}},{"kind":"Field","name":{"kind":"Name","value":"card"}},{"kind":"Field","name":{"kind":"Name","value":"revision"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"refreshedAt"}},{"kind":"Field","name":{"kind":"Name","value":"expiresAt"}}]}}]} as unknown as DocumentNode;
export const TiddlePassOutcomeFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"TiddlePassOutcomeFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"TiddlePassOutcome"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"agentId"}},{"kind":"Field","name":{"kind":"Name","value":"project"}},{"kind":"Field","name":{"kind":"Name","value":"passId"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"trigger"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"error"}},{"kind":"Field","name":{"kind":"Name","value":"residueConsidered"}},{"kind":"Field","name":{"kind":"Name","value":"created"}},{"kind":"Field","name":{"kind":"Name","value":"updated"}},{"kind":"Field","name":{"kind":"Name","value":"expired"}},{"kind":"Field","name":{"kind":"Name","value":"preferenceSignals"}},{"kind":"Field","name":{"kind":"Name","value":"noops"}},{"kind":"Field","name":{"kind":"Name","value":"rejected"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"reason"}},{"kind":"Field","name":{"kind":"Name","value":"proposal"}}]}},{"kind":"Field","name":{"kind":"Name","value":"nextRunAt"}},{"kind":"Field","name":{"kind":"Name","value":"at"}}]}}]} as unknown as DocumentNode;
export const ViewerDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"viewer"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"viewer"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"principal"}},{"kind":"Field","name":{"kind":"Name","value":"tokenName"}},{"kind":"Field","name":{"kind":"Name","value":"agentId"}},{"kind":"Field","name":{"kind":"Name","value":"scope"}},{"kind":"Field","name":{"kind":"Name","value":"sessionId"}},{"kind":"Field","name":{"kind":"Name","value":"conversationId"}},{"kind":"Field","name":{"kind":"Name","value":"agent"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"agentId"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]}}]}}]} as unknown as DocumentNode;
export const AgentDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"agent"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"agent"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"agentId"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"lastEventSequence"}},{"kind":"Field","name":{"kind":"Name","value":"profile"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ProfileDocumentFields"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ProfileDocumentFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ProfileDocument"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"agentId"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"content"}},{"kind":"Field","name":{"kind":"Name","value":"revision"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedBy"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"id"}}]}},{"kind":"Field","name":{"kind":"Name","value":"reference"}}]}}]} as unknown as DocumentNode;
export const AgentsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"agents"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"agents"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"cursor"}},{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"agentId"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"profile"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"content"}}]}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}}]}}]}}]} as unknown as DocumentNode;
export const NodeDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"node"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Agent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"agentId"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ProfileDocument"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"agentId"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"content"}},{"kind":"Field","name":{"kind":"Name","value":"revision"}}]}}]}}]}}]} as unknown as DocumentNode;
export const ProfileDocumentDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"profileDocument"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"agentId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"kind"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ProfileKind"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"revisions"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"profileDocument"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"agentId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"agentId"}}},{"kind":"Argument","name":{"kind":"Name","value":"kind"},"value":{"kind":"Variable","name":{"kind":"Name","value":"kind"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ProfileDocumentFields"}},{"kind":"Field","name":{"kind":"Name","value":"revisions"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"revisions"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"revision"}},{"kind":"Field","name":{"kind":"Name","value":"content"}},{"kind":"Field","name":{"kind":"Name","value":"reason"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"actor"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ProfileDocumentFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ProfileDocument"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"agentId"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"content"}},{"kind":"Field","name":{"kind":"Name","value":"revision"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedBy"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"id"}}]}},{"kind":"Field","name":{"kind":"Name","value":"reference"}}]}}]} as unknown as DocumentNode;
export const PreferenceLearningDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"preferenceLearning"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"agentId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"preferenceLearning"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"agentId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"agentId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"appliedCount"}},{"kind":"Field","name":{"kind":"Name","value":"lastAppliedRevision"}},{"kind":"Field","name":{"kind":"Name","value":"lastAppliedAt"}},{"kind":"Field","name":{"kind":"Name","value":"audit"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"action"}},{"kind":"Field","name":{"kind":"Name","value":"fromRevision"}},{"kind":"Field","name":{"kind":"Name","value":"toRevision"}},{"kind":"Field","name":{"kind":"Name","value":"actor"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"id"}}]}},{"kind":"Field","name":{"kind":"Name","value":"detail"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}}]}},{"kind":"Field","name":{"kind":"Name","value":"signals"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"source"}},{"kind":"Field","name":{"kind":"Name","value":"project"}},{"kind":"Field","name":{"kind":"Name","value":"statement"}},{"kind":"Field","name":{"kind":"Name","value":"evidence"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}}]}}]}}]}}]} as unknown as DocumentNode;
export const CreateAgentDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"createAgent"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"CreateAgentInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createAgent"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"CreateAgentSuccess"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"agent"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"agentId"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"profile"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ProfileDocumentFields"}}]}}]}}]}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"ErrorFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ProfileDocumentFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ProfileDocument"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"agentId"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"content"}},{"kind":"Field","name":{"kind":"Name","value":"revision"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedBy"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"id"}}]}},{"kind":"Field","name":{"kind":"Name","value":"reference"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ErrorFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ValidationFailed"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"field"}},{"kind":"Field","name":{"kind":"Name","value":"limit"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"RevisionConflict"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"expectedRevision"}},{"kind":"Field","name":{"kind":"Name","value":"currentRevision"}},{"kind":"Field","name":{"kind":"Name","value":"currentContent"}},{"kind":"Field","name":{"kind":"Name","value":"currentValue"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"NotFound"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"resource"}},{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}}]} as unknown as DocumentNode;
export const UpdateProfileDocumentDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"updateProfileDocument"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"UpdateProfileDocumentInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"updateProfileDocument"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"UpdateProfileDocumentSuccess"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"document"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ProfileDocumentFields"}}]}}]}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"ErrorFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ProfileDocumentFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ProfileDocument"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"agentId"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"content"}},{"kind":"Field","name":{"kind":"Name","value":"revision"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedBy"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"id"}}]}},{"kind":"Field","name":{"kind":"Name","value":"reference"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ErrorFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ValidationFailed"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"field"}},{"kind":"Field","name":{"kind":"Name","value":"limit"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"RevisionConflict"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"expectedRevision"}},{"kind":"Field","name":{"kind":"Name","value":"currentRevision"}},{"kind":"Field","name":{"kind":"Name","value":"currentContent"}},{"kind":"Field","name":{"kind":"Name","value":"currentValue"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"NotFound"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"resource"}},{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}}]} as unknown as DocumentNode;
export const ReplaceProfileDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"replaceProfile"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ReplaceProfileInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"replaceProfile"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ReplaceProfileSuccess"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"documents"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ProfileDocumentFields"}}]}}]}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"ErrorFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ProfileDocumentFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ProfileDocument"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"agentId"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"content"}},{"kind":"Field","name":{"kind":"Name","value":"revision"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedBy"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"id"}}]}},{"kind":"Field","name":{"kind":"Name","value":"reference"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ErrorFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ValidationFailed"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"field"}},{"kind":"Field","name":{"kind":"Name","value":"limit"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"RevisionConflict"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"expectedRevision"}},{"kind":"Field","name":{"kind":"Name","value":"currentRevision"}},{"kind":"Field","name":{"kind":"Name","value":"currentContent"}},{"kind":"Field","name":{"kind":"Name","value":"currentValue"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"NotFound"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"resource"}},{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}}]} as unknown as DocumentNode;
export const ApplyPreferenceLearningDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"applyPreferenceLearning"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ApplyPreferenceLearningInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"applyPreferenceLearning"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ApplyPreferenceLearningSuccess"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"document"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ProfileDocumentFields"}}]}}]}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"ErrorFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ProfileDocumentFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ProfileDocument"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"agentId"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"content"}},{"kind":"Field","name":{"kind":"Name","value":"revision"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedBy"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"id"}}]}},{"kind":"Field","name":{"kind":"Name","value":"reference"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ErrorFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ValidationFailed"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"field"}},{"kind":"Field","name":{"kind":"Name","value":"limit"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"RevisionConflict"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"expectedRevision"}},{"kind":"Field","name":{"kind":"Name","value":"currentRevision"}},{"kind":"Field","name":{"kind":"Name","value":"currentContent"}},{"kind":"Field","name":{"kind":"Name","value":"currentValue"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"NotFound"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"resource"}},{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}}]} as unknown as DocumentNode;
export const AgentEventsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"agentEvents"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"agentId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"agentEvents"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"agentId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"agentId"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"AgentEventFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"AgentEventFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"AgentEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"sequence"}},{"kind":"Field","name":{"kind":"Name","value":"agentId"}},{"kind":"Field","name":{"kind":"Name","value":"stream"}},{"kind":"Field","name":{"kind":"Name","value":"type"}},{"kind":"Field","name":{"kind":"Name","value":"subjectId"}},{"kind":"Field","name":{"kind":"Name","value":"project"}},{"kind":"Field","name":{"kind":"Name","value":"occurredAt"}},{"kind":"Field","name":{"kind":"Name","value":"payload"}}]}}]} as unknown as DocumentNode;
export const TiddleAppendResidueDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"tiddleAppendResidue"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"TiddleAppendResidueInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"tiddleAppendResidue"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"TiddleAppendResidueSuccess"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"append"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"pruned"}},{"kind":"Field","name":{"kind":"Name","value":"replaced"}},{"kind":"Field","name":{"kind":"Name","value":"entry"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"agentId"}},{"kind":"Field","name":{"kind":"Name","value":"project"}},{"kind":"Field","name":{"kind":"Name","value":"reference"}},{"kind":"Field","name":{"kind":"Name","value":"sessionId"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"excerpts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"role"}},{"kind":"Field","name":{"kind":"Name","value":"text"}}]}}]}}]}}]}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"ErrorFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ErrorFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ValidationFailed"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"field"}},{"kind":"Field","name":{"kind":"Name","value":"limit"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"RevisionConflict"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"expectedRevision"}},{"kind":"Field","name":{"kind":"Name","value":"currentRevision"}},{"kind":"Field","name":{"kind":"Name","value":"currentContent"}},{"kind":"Field","name":{"kind":"Name","value":"currentValue"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"NotFound"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"resource"}},{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}}]} as unknown as DocumentNode;
export const TiddleRunPassDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"tiddleRunPass"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"TiddleRunPassInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"tiddleRunPass"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"TiddleRunPassSuccess"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"outcomes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"TiddlePassOutcomeFields"}}]}}]}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"ErrorFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ErrorFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ValidationFailed"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"field"}},{"kind":"Field","name":{"kind":"Name","value":"limit"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"RevisionConflict"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"expectedRevision"}},{"kind":"Field","name":{"kind":"Name","value":"currentRevision"}},{"kind":"Field","name":{"kind":"Name","value":"currentContent"}},{"kind":"Field","name":{"kind":"Name","value":"currentValue"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"NotFound"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"resource"}},{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"TiddlePassOutcomeFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"TiddlePassOutcome"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"agentId"}},{"kind":"Field","name":{"kind":"Name","value":"project"}},{"kind":"Field","name":{"kind":"Name","value":"passId"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"trigger"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"error"}},{"kind":"Field","name":{"kind":"Name","value":"residueConsidered"}},{"kind":"Field","name":{"kind":"Name","value":"created"}},{"kind":"Field","name":{"kind":"Name","value":"updated"}},{"kind":"Field","name":{"kind":"Name","value":"expired"}},{"kind":"Field","name":{"kind":"Name","value":"preferenceSignals"}},{"kind":"Field","name":{"kind":"Name","value":"noops"}},{"kind":"Field","name":{"kind":"Name","value":"rejected"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"reason"}},{"kind":"Field","name":{"kind":"Name","value":"proposal"}}]}},{"kind":"Field","name":{"kind":"Name","value":"nextRunAt"}},{"kind":"Field","name":{"kind":"Name","value":"at"}}]}}]} as unknown as DocumentNode;
export const SetTiddleCardTtlDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"setTiddleCardTtl"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"SetTiddleCardTtlInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"setTiddleCardTtl"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"SetTiddleCardTtlSuccess"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"setting"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"agentId"}},{"kind":"Field","name":{"kind":"Name","value":"cardTtlDays"}},{"kind":"Field","name":{"kind":"Name","value":"expiredCards"}}]}}]}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"ErrorFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ErrorFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ValidationFailed"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"field"}},{"kind":"Field","name":{"kind":"Name","value":"limit"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"RevisionConflict"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"expectedRevision"}},{"kind":"Field","name":{"kind":"Name","value":"currentRevision"}},{"kind":"Field","name":{"kind":"Name","value":"currentContent"}},{"kind":"Field","name":{"kind":"Name","value":"currentValue"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"NotFound"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"resource"}},{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}}]} as unknown as DocumentNode;
export const RollingCardsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"rollingCards"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"agentId"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"project"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"rollingCards"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"agentId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"agentId"}}},{"kind":"Argument","name":{"kind":"Name","value":"project"},"value":{"kind":"Variable","name":{"kind":"Name","value":"project"}}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"cursor"}},{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"RollingCardFields"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RollingCardFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"RollingCard"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"agentId"}},{"kind":"Field","name":{"kind":"Name","value":"project"}},{"kind":"Field","name":{"kind":"Name","value":"cardId"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"body"}},{"kind":"Field","name":{"kind":"Name","value":"evidence"}},{"kind":"Field","name":{"kind":"Name","value":"card"}},{"kind":"Field","name":{"kind":"Name","value":"revision"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"refreshedAt"}},{"kind":"Field","name":{"kind":"Name","value":"expiresAt"}}]}}]} as unknown as DocumentNode;
export const MemoryRollingSearchDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"memoryRollingSearch"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"query"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"project"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"agentId"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"limit"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"memoryRollingSearch"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"query"},"value":{"kind":"Variable","name":{"kind":"Name","value":"query"}}},{"kind":"Argument","name":{"kind":"Name","value":"project"},"value":{"kind":"Variable","name":{"kind":"Name","value":"project"}}},{"kind":"Argument","name":{"kind":"Name","value":"agentId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"agentId"}}},{"kind":"Argument","name":{"kind":"Name","value":"limit"},"value":{"kind":"Variable","name":{"kind":"Name","value":"limit"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"owner"}},{"kind":"Field","name":{"kind":"Name","value":"entersPrompt"}},{"kind":"Field","name":{"kind":"Name","value":"agentId"}},{"kind":"Field","name":{"kind":"Name","value":"project"}},{"kind":"Field","name":{"kind":"Name","value":"query"}},{"kind":"Field","name":{"kind":"Name","value":"cards"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"RollingCardFields"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RollingCardFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"RollingCard"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"agentId"}},{"kind":"Field","name":{"kind":"Name","value":"project"}},{"kind":"Field","name":{"kind":"Name","value":"cardId"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"body"}},{"kind":"Field","name":{"kind":"Name","value":"evidence"}},{"kind":"Field","name":{"kind":"Name","value":"card"}},{"kind":"Field","name":{"kind":"Name","value":"revision"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"refreshedAt"}},{"kind":"Field","name":{"kind":"Name","value":"expiresAt"}}]}}]} as unknown as DocumentNode;
export const TiddleStatusDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"tiddleStatus"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"agentId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"tiddleStatus"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"agentId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"agentId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"agentId"}},{"kind":"Field","name":{"kind":"Name","value":"cardTtlDays"}},{"kind":"Field","name":{"kind":"Name","value":"lastSynthesisDate"}},{"kind":"Field","name":{"kind":"Name","value":"lastSynthesisAt"}},{"kind":"Field","name":{"kind":"Name","value":"schedulerEnabled"}},{"kind":"Field","name":{"kind":"Name","value":"proposer"}},{"kind":"Field","name":{"kind":"Name","value":"scopes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"project"}},{"kind":"Field","name":{"kind":"Name","value":"nextRunAt"}},{"kind":"Field","name":{"kind":"Name","value":"lastSuccessAt"}},{"kind":"Field","name":{"kind":"Name","value":"lastAttemptAt"}},{"kind":"Field","name":{"kind":"Name","value":"lastError"}},{"kind":"Field","name":{"kind":"Name","value":"lastErrorAt"}},{"kind":"Field","name":{"kind":"Name","value":"consecutiveFailures"}},{"kind":"Field","name":{"kind":"Name","value":"lastPassId"}}]}}]}}]}}]} as unknown as DocumentNode;
export const TiddleResidueDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"tiddleResidue"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"agentId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"project"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"tiddleResidue"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"agentId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"agentId"}}},{"kind":"Argument","name":{"kind":"Name","value":"project"},"value":{"kind":"Variable","name":{"kind":"Name","value":"project"}}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"agentId"}},{"kind":"Field","name":{"kind":"Name","value":"project"}},{"kind":"Field","name":{"kind":"Name","value":"reference"}},{"kind":"Field","name":{"kind":"Name","value":"sessionId"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"excerpts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"role"}},{"kind":"Field","name":{"kind":"Name","value":"text"}}]}}]}}]}}]} as unknown as DocumentNode;
export const TiddleHistoryDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"tiddleHistory"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"agentId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"project"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"tiddleHistory"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"agentId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"agentId"}}},{"kind":"Argument","name":{"kind":"Name","value":"project"},"value":{"kind":"Variable","name":{"kind":"Name","value":"project"}}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"project"}},{"kind":"Field","name":{"kind":"Name","value":"passId"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"payload"}}]}}]}}]} as unknown as DocumentNode;
export const AmbientContinuityDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ambientContinuity"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"agentId"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"project"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"ambientContinuity"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"agentId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"agentId"}}},{"kind":"Argument","name":{"kind":"Name","value":"project"},"value":{"kind":"Variable","name":{"kind":"Name","value":"project"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"agentId"}},{"kind":"Field","name":{"kind":"Name","value":"project"}},{"kind":"Field","name":{"kind":"Name","value":"workingRecords"}},{"kind":"Field","name":{"kind":"Name","value":"entersPrompt"}},{"kind":"Field","name":{"kind":"Name","value":"rollingCards"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"RollingCardFields"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RollingCardFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"RollingCard"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"agentId"}},{"kind":"Field","name":{"kind":"Name","value":"project"}},{"kind":"Field","name":{"kind":"Name","value":"cardId"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"body"}},{"kind":"Field","name":{"kind":"Name","value":"evidence"}},{"kind":"Field","name":{"kind":"Name","value":"card"}},{"kind":"Field","name":{"kind":"Name","value":"revision"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"refreshedAt"}},{"kind":"Field","name":{"kind":"Name","value":"expiresAt"}}]}}]} as unknown as DocumentNode;
export const RollingCardEventsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"rollingCardEvents"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"agentId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"project"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"rollingCardEvents"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"agentId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"agentId"}}},{"kind":"Argument","name":{"kind":"Name","value":"project"},"value":{"kind":"Variable","name":{"kind":"Name","value":"project"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"AgentEventFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"AgentEventFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"AgentEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"sequence"}},{"kind":"Field","name":{"kind":"Name","value":"agentId"}},{"kind":"Field","name":{"kind":"Name","value":"stream"}},{"kind":"Field","name":{"kind":"Name","value":"type"}},{"kind":"Field","name":{"kind":"Name","value":"subjectId"}},{"kind":"Field","name":{"kind":"Name","value":"project"}},{"kind":"Field","name":{"kind":"Name","value":"occurredAt"}},{"kind":"Field","name":{"kind":"Name","value":"payload"}}]}}]} as unknown as DocumentNode;
export const TiddleStatusEventsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"tiddleStatusEvents"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"agentId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"tiddleStatusEvents"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"agentId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"agentId"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"AgentEventFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"AgentEventFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"AgentEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"sequence"}},{"kind":"Field","name":{"kind":"Name","value":"agentId"}},{"kind":"Field","name":{"kind":"Name","value":"stream"}},{"kind":"Field","name":{"kind":"Name","value":"type"}},{"kind":"Field","name":{"kind":"Name","value":"subjectId"}},{"kind":"Field","name":{"kind":"Name","value":"project"}},{"kind":"Field","name":{"kind":"Name","value":"occurredAt"}},{"kind":"Field","name":{"kind":"Name","value":"payload"}}]}}]} as unknown as DocumentNode;
export type Requester<C = {}> = <R, V>(doc: DocumentNode, vars?: V, options?: C) => Promise<R> | AsyncIterable<R>
export function getSdk<C>(requester: Requester<C>) {
  return {
    viewer(variables?: ViewerQueryVariables, options?: C): Promise<ViewerQuery> {
      return requester<ViewerQuery, ViewerQueryVariables>(ViewerDocument, variables, options) as Promise<ViewerQuery>;
    },
    agent(variables: AgentQueryVariables, options?: C): Promise<AgentQuery> {
      return requester<AgentQuery, AgentQueryVariables>(AgentDocument, variables, options) as Promise<AgentQuery>;
    },
    agents(variables?: AgentsQueryVariables, options?: C): Promise<AgentsQuery> {
      return requester<AgentsQuery, AgentsQueryVariables>(AgentsDocument, variables, options) as Promise<AgentsQuery>;
    },
    node(variables: NodeQueryVariables, options?: C): Promise<NodeQuery> {
      return requester<NodeQuery, NodeQueryVariables>(NodeDocument, variables, options) as Promise<NodeQuery>;
    },
    profileDocument(variables: ProfileDocumentQueryVariables, options?: C): Promise<ProfileDocumentQuery> {
      return requester<ProfileDocumentQuery, ProfileDocumentQueryVariables>(ProfileDocumentDocument, variables, options) as Promise<ProfileDocumentQuery>;
    },
    preferenceLearning(variables: PreferenceLearningQueryVariables, options?: C): Promise<PreferenceLearningQuery> {
      return requester<PreferenceLearningQuery, PreferenceLearningQueryVariables>(PreferenceLearningDocument, variables, options) as Promise<PreferenceLearningQuery>;
    },
    createAgent(variables: CreateAgentMutationVariables, options?: C): Promise<CreateAgentMutation> {
      return requester<CreateAgentMutation, CreateAgentMutationVariables>(CreateAgentDocument, variables, options) as Promise<CreateAgentMutation>;
    },
    updateProfileDocument(variables: UpdateProfileDocumentMutationVariables, options?: C): Promise<UpdateProfileDocumentMutation> {
      return requester<UpdateProfileDocumentMutation, UpdateProfileDocumentMutationVariables>(UpdateProfileDocumentDocument, variables, options) as Promise<UpdateProfileDocumentMutation>;
    },
    replaceProfile(variables: ReplaceProfileMutationVariables, options?: C): Promise<ReplaceProfileMutation> {
      return requester<ReplaceProfileMutation, ReplaceProfileMutationVariables>(ReplaceProfileDocument, variables, options) as Promise<ReplaceProfileMutation>;
    },
    applyPreferenceLearning(variables: ApplyPreferenceLearningMutationVariables, options?: C): Promise<ApplyPreferenceLearningMutation> {
      return requester<ApplyPreferenceLearningMutation, ApplyPreferenceLearningMutationVariables>(ApplyPreferenceLearningDocument, variables, options) as Promise<ApplyPreferenceLearningMutation>;
    },
    agentEvents(variables: AgentEventsSubscriptionVariables, options?: C): AsyncIterable<AgentEventsSubscription> {
      return requester<AgentEventsSubscription, AgentEventsSubscriptionVariables>(AgentEventsDocument, variables, options) as AsyncIterable<AgentEventsSubscription>;
    },
    tiddleAppendResidue(variables: TiddleAppendResidueMutationVariables, options?: C): Promise<TiddleAppendResidueMutation> {
      return requester<TiddleAppendResidueMutation, TiddleAppendResidueMutationVariables>(TiddleAppendResidueDocument, variables, options) as Promise<TiddleAppendResidueMutation>;
    },
    tiddleRunPass(variables: TiddleRunPassMutationVariables, options?: C): Promise<TiddleRunPassMutation> {
      return requester<TiddleRunPassMutation, TiddleRunPassMutationVariables>(TiddleRunPassDocument, variables, options) as Promise<TiddleRunPassMutation>;
    },
    setTiddleCardTtl(variables: SetTiddleCardTtlMutationVariables, options?: C): Promise<SetTiddleCardTtlMutation> {
      return requester<SetTiddleCardTtlMutation, SetTiddleCardTtlMutationVariables>(SetTiddleCardTtlDocument, variables, options) as Promise<SetTiddleCardTtlMutation>;
    },
    rollingCards(variables?: RollingCardsQueryVariables, options?: C): Promise<RollingCardsQuery> {
      return requester<RollingCardsQuery, RollingCardsQueryVariables>(RollingCardsDocument, variables, options) as Promise<RollingCardsQuery>;
    },
    memoryRollingSearch(variables: MemoryRollingSearchQueryVariables, options?: C): Promise<MemoryRollingSearchQuery> {
      return requester<MemoryRollingSearchQuery, MemoryRollingSearchQueryVariables>(MemoryRollingSearchDocument, variables, options) as Promise<MemoryRollingSearchQuery>;
    },
    tiddleStatus(variables: TiddleStatusQueryVariables, options?: C): Promise<TiddleStatusQuery> {
      return requester<TiddleStatusQuery, TiddleStatusQueryVariables>(TiddleStatusDocument, variables, options) as Promise<TiddleStatusQuery>;
    },
    tiddleResidue(variables: TiddleResidueQueryVariables, options?: C): Promise<TiddleResidueQuery> {
      return requester<TiddleResidueQuery, TiddleResidueQueryVariables>(TiddleResidueDocument, variables, options) as Promise<TiddleResidueQuery>;
    },
    tiddleHistory(variables: TiddleHistoryQueryVariables, options?: C): Promise<TiddleHistoryQuery> {
      return requester<TiddleHistoryQuery, TiddleHistoryQueryVariables>(TiddleHistoryDocument, variables, options) as Promise<TiddleHistoryQuery>;
    },
    ambientContinuity(variables?: AmbientContinuityQueryVariables, options?: C): Promise<AmbientContinuityQuery> {
      return requester<AmbientContinuityQuery, AmbientContinuityQueryVariables>(AmbientContinuityDocument, variables, options) as Promise<AmbientContinuityQuery>;
    },
    rollingCardEvents(variables: RollingCardEventsSubscriptionVariables, options?: C): AsyncIterable<RollingCardEventsSubscription> {
      return requester<RollingCardEventsSubscription, RollingCardEventsSubscriptionVariables>(RollingCardEventsDocument, variables, options) as AsyncIterable<RollingCardEventsSubscription>;
    },
    tiddleStatusEvents(variables: TiddleStatusEventsSubscriptionVariables, options?: C): AsyncIterable<TiddleStatusEventsSubscription> {
      return requester<TiddleStatusEventsSubscription, TiddleStatusEventsSubscriptionVariables>(TiddleStatusEventsDocument, variables, options) as AsyncIterable<TiddleStatusEventsSubscription>;
    }
  };
}
export type Sdk = ReturnType<typeof getSdk>;