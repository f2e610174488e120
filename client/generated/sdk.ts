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

export type ClaimContinuityRecoveryInput = {
  agentId?: string | null | undefined;
  /** The generation being recovered; refused if the run moved on */
  expectedGeneration?: number | null | undefined;
  ownerId: string;
  runId: string;
};

export type CommitContinuityRunInput = {
  /** Operators name the agent; agent tokens act as their agent */
  agentId?: string | null | undefined;
  generation: number;
  /** JSON text, at most 262,144 characters */
  head: string;
  ownerId: string;
  runId: string;
};

export type CompleteContinuityRunInput = {
  /** Operators name the agent; agent tokens act as their agent */
  agentId?: string | null | undefined;
  generation: number;
  ownerId: string;
  runId: string;
};

/** UNKNOWN: intended, no receipt yet; it may or may not have happened */
export type ContinuityEffectOutcome =
  | 'FAILED'
  | 'SUCCEEDED'
  | 'UNKNOWN';

export type ContinuityReceiptOutcome =
  | 'FAILED'
  | 'SUCCEEDED';

export type ContinuityRunState =
  | 'COMPLETED'
  | 'FINALIZING'
  | 'INTERRUPTED'
  | 'RECOVERY_PENDING'
  | 'RUNNING';

export type CreateAgentInput = {
  /** a-z, 0-9, "_" and "-", at most 63; generated when absent */
  id?: string | null | undefined;
  name: string;
};

export type FinalizeContinuityRunInput = {
  /** Operators name the agent; agent tokens act as their agent */
  agentId?: string | null | undefined;
  generation: number;
  ownerId: string;
  /** The final result, JSON text */
  result?: string | null | undefined;
  runId: string;
};

export type InterruptContinuityRunInput = {
  /** Operators name the agent; agent tokens act as their agent */
  agentId?: string | null | undefined;
  generation: number;
  ownerId: string;
  reason: string;
  runId: string;
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

export type RecordContinuityEffectInput = {
  /** Operators name the agent; agent tokens act as their agent */
  agentId?: string | null | undefined;
  /** Generated when absent */
  effectId?: string | null | undefined;
  generation: number;
  kind: string;
  ownerId: string;
  /** What the effect will do, JSON text, at most 65,536 characters */
  request: string;
  runId: string;
};

export type RecordContinuityReceiptInput = {
  /** Operators name the agent; agent tokens act as their agent */
  agentId?: string | null | undefined;
  effectId: string;
  generation: number;
  outcome: ContinuityReceiptOutcome;
  ownerId: string;
  /** JSON text, at most 65,536 characters */
  receipt: string;
  runId: string;
};

export type ReplaceProfileInput = {
  agentId: string;
  documents: Array<ProfileDocumentInput>;
};

export type StartContinuityRunInput = {
  agentId?: string | null | undefined;
  /** Initial head, JSON text (default {}), at most 262,144 characters */
  head?: string | null | undefined;
  /** A live ownership session (runtimeOwnership) of the agent */
  ownerId: string;
  /** Generated when absent */
  runId?: string | null | undefined;
};

export type UpdateProfileDocumentInput = {
  agentId: string;
  content: string;
  expectedRevision: number;
  kind: ProfileKind;
};

export type ProfileDocumentFieldsFragment = { id: string, agentId: string, kind: ProfileKind, content: string, revision: number, updatedAt: string, reference: string, updatedBy: { kind: PrincipalKind, id: string } };

type ErrorFields_ContinuityFenceRejected_Fragment = { __typename: 'ContinuityFenceRejected', message: string, code: string };

type ErrorFields_Forbidden_Fragment = { __typename: 'Forbidden', message: string, code: string };

type ErrorFields_NotFound_Fragment = { __typename: 'NotFound', resource: string, id: string, message: string, code: string };

type ErrorFields_RevisionConflict_Fragment = { __typename: 'RevisionConflict', expectedRevision: number, currentRevision: number, currentContent: string | null, currentValue: unknown, message: string, code: string };

type ErrorFields_ValidationFailed_Fragment = { __typename: 'ValidationFailed', field: string, limit: number | null, message: string, code: string };

export type ErrorFieldsFragment =
  | ErrorFields_ContinuityFenceRejected_Fragment
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
    | { __typename: 'ContinuityRun', id: string }
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

export type ContinuityRunFieldsFragment = { id: string, runId: string, agentId: string, sessionId: string | null, project: string | null, state: ContinuityRunState, generation: number, ownerId: string, head: string, headRevision: number, finalResult: string | null, interruptionManifest: unknown, recoveryQueue: unknown, effectCount: number, createdAt: string, updatedAt: string, completedAt: string | null, interruptedAt: string | null };

export type ContinuityEffectFieldsFragment = { effectId: string, kind: string, request: string, outcome: ContinuityEffectOutcome, receipt: string | null, intendedGeneration: number, intendedBy: string, intendedAt: string, receiptGeneration: number | null, receiptBy: string | null, receiptAt: string | null };

type ContinuityErrorFields_ContinuityFenceRejected_Fragment = { __typename: 'ContinuityFenceRejected', runId: string, currentState: ContinuityRunState, currentGeneration: number, message: string, code: string };

type ContinuityErrorFields_Forbidden_Fragment = { __typename: 'Forbidden', message: string, code: string };

type ContinuityErrorFields_NotFound_Fragment = { __typename: 'NotFound', resource: string, id: string, message: string, code: string };

type ContinuityErrorFields_RevisionConflict_Fragment = { __typename: 'RevisionConflict', message: string, code: string };

type ContinuityErrorFields_ValidationFailed_Fragment = { __typename: 'ValidationFailed', field: string, limit: number | null, message: string, code: string };

export type ContinuityErrorFieldsFragment =
  | ContinuityErrorFields_ContinuityFenceRejected_Fragment
  | ContinuityErrorFields_Forbidden_Fragment
  | ContinuityErrorFields_NotFound_Fragment
  | ContinuityErrorFields_RevisionConflict_Fragment
  | ContinuityErrorFields_ValidationFailed_Fragment
;

export type ContinuityRunQueryVariables = Exact<{
  runId: string;
  agentId?: string | null | undefined;
}>;


export type ContinuityRunQuery = { continuityRun: { id: string, runId: string, agentId: string, sessionId: string | null, project: string | null, state: ContinuityRunState, generation: number, ownerId: string, head: string, headRevision: number, finalResult: string | null, interruptionManifest: unknown, recoveryQueue: unknown, effectCount: number, createdAt: string, updatedAt: string, completedAt: string | null, interruptedAt: string | null, effects: Array<{ effectId: string, kind: string, request: string, outcome: ContinuityEffectOutcome, receipt: string | null, intendedGeneration: number, intendedBy: string, intendedAt: string, receiptGeneration: number | null, receiptBy: string | null, receiptAt: string | null }>, transitions: Array<{ position: number, from: ContinuityRunState | null, to: ContinuityRunState, generation: number, ownerId: string, reason: string, sequence: number, at: string }> } | null };

export type ContinuityRunsQueryVariables = Exact<{
  agentId?: string | null | undefined;
  states?: Array<ContinuityRunState> | ContinuityRunState | null | undefined;
  first?: number | null | undefined;
  after?: string | null | undefined;
}>;


export type ContinuityRunsQuery = { continuityRuns: { edges: Array<{ cursor: string, node: { id: string, runId: string, agentId: string, sessionId: string | null, project: string | null, state: ContinuityRunState, generation: number, ownerId: string, head: string, headRevision: number, finalResult: string | null, interruptionManifest: unknown, recoveryQueue: unknown, effectCount: number, createdAt: string, updatedAt: string, completedAt: string | null, interruptedAt: string | null } }>, pageInfo: { hasNextPage: boolean, endCursor: string | null } } };

export type ContinuityOwnersQueryVariables = Exact<{
  agentId?: string | null | undefined;
  includeClosed?: boolean | null | undefined;
}>;


export type ContinuityOwnersQuery = { continuityOwners: Array<{ ownerId: string, agentId: string, instance: string, openedAt: string, closedAt: string | null, live: boolean }> };

export type StartContinuityRunMutationVariables = Exact<{
  input: StartContinuityRunInput;
}>;


export type StartContinuityRunMutation = { startContinuityRun:
    | { __typename: 'ContinuityFenceRejected', runId: string, currentState: ContinuityRunState, currentGeneration: number, message: string, code: string }
    | { __typename: 'Forbidden', message: string, code: string }
    | { __typename: 'NotFound', resource: string, id: string, message: string, code: string }
    | { __typename: 'StartContinuityRunSuccess', run: { id: string, runId: string, agentId: string, sessionId: string | null, project: string | null, state: ContinuityRunState, generation: number, ownerId: string, head: string, headRevision: number, finalResult: string | null, interruptionManifest: unknown, recoveryQueue: unknown, effectCount: number, createdAt: string, updatedAt: string, completedAt: string | null, interruptedAt: string | null } }
    | { __typename: 'ValidationFailed', field: string, limit: number | null, message: string, code: string }
   };

export type CommitContinuityRunMutationVariables = Exact<{
  input: CommitContinuityRunInput;
}>;


export type CommitContinuityRunMutation = { commitContinuityRun:
    | { __typename: 'CommitContinuityRunSuccess', run: { id: string, runId: string, agentId: string, sessionId: string | null, project: string | null, state: ContinuityRunState, generation: number, ownerId: string, head: string, headRevision: number, finalResult: string | null, interruptionManifest: unknown, recoveryQueue: unknown, effectCount: number, createdAt: string, updatedAt: string, completedAt: string | null, interruptedAt: string | null } }
    | { __typename: 'ContinuityFenceRejected', runId: string, currentState: ContinuityRunState, currentGeneration: number, message: string, code: string }
    | { __typename: 'Forbidden', message: string, code: string }
    | { __typename: 'NotFound', resource: string, id: string, message: string, code: string }
    | { __typename: 'ValidationFailed', field: string, limit: number | null, message: string, code: string }
   };

export type RecordContinuityEffectMutationVariables = Exact<{
  input: RecordContinuityEffectInput;
}>;


export type RecordContinuityEffectMutation = { recordContinuityEffect:
    | { __typename: 'ContinuityFenceRejected', runId: string, currentState: ContinuityRunState, currentGeneration: number, message: string, code: string }
    | { __typename: 'Forbidden', message: string, code: string }
    | { __typename: 'NotFound', resource: string, id: string, message: string, code: string }
    | { __typename: 'RecordContinuityEffectSuccess', effect: { effectId: string, kind: string, request: string, outcome: ContinuityEffectOutcome, receipt: string | null, intendedGeneration: number, intendedBy: string, intendedAt: string, receiptGeneration: number | null, receiptBy: string | null, receiptAt: string | null } }
    | { __typename: 'ValidationFailed', field: string, limit: number | null, message: string, code: string }
   };

export type RecordContinuityReceiptMutationVariables = Exact<{
  input: RecordContinuityReceiptInput;
}>;


export type RecordContinuityReceiptMutation = { recordContinuityReceipt:
    | { __typename: 'ContinuityFenceRejected', runId: string, currentState: ContinuityRunState, currentGeneration: number, message: string, code: string }
    | { __typename: 'Forbidden', message: string, code: string }
    | { __typename: 'NotFound', resource: string, id: string, message: string, code: string }
    | { __typename: 'RecordContinuityReceiptSuccess', effect: { effectId: string, kind: string, request: string, outcome: ContinuityEffectOutcome, receipt: string | null, intendedGeneration: number, intendedBy: string, intendedAt: string, receiptGeneration: number | null, receiptBy: string | null, receiptAt: string | null } }
    | { __typename: 'ValidationFailed', field: string, limit: number | null, message: string, code: string }
   };

export type FinalizeContinuityRunMutationVariables = Exact<{
  input: FinalizeContinuityRunInput;
}>;


export type FinalizeContinuityRunMutation = { finalizeContinuityRun:
    | { __typename: 'ContinuityFenceRejected', runId: string, currentState: ContinuityRunState, currentGeneration: number, message: string, code: string }
    | { __typename: 'FinalizeContinuityRunSuccess', run: { id: string, runId: string, agentId: string, sessionId: string | null, project: string | null, state: ContinuityRunState, generation: number, ownerId: string, head: string, headRevision: number, finalResult: string | null, interruptionManifest: unknown, recoveryQueue: unknown, effectCount: number, createdAt: string, updatedAt: string, completedAt: string | null, interruptedAt: string | null } }
    | { __typename: 'Forbidden', message: string, code: string }
    | { __typename: 'NotFound', resource: string, id: string, message: string, code: string }
    | { __typename: 'ValidationFailed', field: string, limit: number | null, message: string, code: string }
   };

export type CompleteContinuityRunMutationVariables = Exact<{
  input: CompleteContinuityRunInput;
}>;


export type CompleteContinuityRunMutation = { completeContinuityRun:
    | { __typename: 'CompleteContinuityRunSuccess', run: { id: string, runId: string, agentId: string, sessionId: string | null, project: string | null, state: ContinuityRunState, generation: number, ownerId: string, head: string, headRevision: number, finalResult: string | null, interruptionManifest: unknown, recoveryQueue: unknown, effectCount: number, createdAt: string, updatedAt: string, completedAt: string | null, interruptedAt: string | null } }
    | { __typename: 'ContinuityFenceRejected', runId: string, currentState: ContinuityRunState, currentGeneration: number, message: string, code: string }
    | { __typename: 'Forbidden', message: string, code: string }
    | { __typename: 'NotFound', resource: string, id: string, message: string, code: string }
    | { __typename: 'ValidationFailed', field: string, limit: number | null, message: string, code: string }
   };

export type InterruptContinuityRunMutationVariables = Exact<{
  input: InterruptContinuityRunInput;
}>;


export type InterruptContinuityRunMutation = { interruptContinuityRun:
    | { __typename: 'ContinuityFenceRejected', runId: string, currentState: ContinuityRunState, currentGeneration: number, message: string, code: string }
    | { __typename: 'Forbidden', message: string, code: string }
    | { __typename: 'InterruptContinuityRunSuccess', run: { id: string, runId: string, agentId: string, sessionId: string | null, project: string | null, state: ContinuityRunState, generation: number, ownerId: string, head: string, headRevision: number, finalResult: string | null, interruptionManifest: unknown, recoveryQueue: unknown, effectCount: number, createdAt: string, updatedAt: string, completedAt: string | null, interruptedAt: string | null } }
    | { __typename: 'NotFound', resource: string, id: string, message: string, code: string }
    | { __typename: 'ValidationFailed', field: string, limit: number | null, message: string, code: string }
   };

export type ClaimContinuityRecoveryMutationVariables = Exact<{
  input: ClaimContinuityRecoveryInput;
}>;


export type ClaimContinuityRecoveryMutation = { claimContinuityRecovery:
    | { __typename: 'ClaimContinuityRecoverySuccess', run: { id: string, runId: string, agentId: string, sessionId: string | null, project: string | null, state: ContinuityRunState, generation: number, ownerId: string, head: string, headRevision: number, finalResult: string | null, interruptionManifest: unknown, recoveryQueue: unknown, effectCount: number, createdAt: string, updatedAt: string, completedAt: string | null, interruptedAt: string | null } }
    | { __typename: 'ContinuityFenceRejected', runId: string, currentState: ContinuityRunState, currentGeneration: number, message: string, code: string }
    | { __typename: 'Forbidden', message: string, code: string }
    | { __typename: 'NotFound', resource: string, id: string, message: string, code: string }
    | { __typename: 'ValidationFailed', field: string, limit: number | null, message: string, code: string }
   };

export type ReconcileContinuityMutationVariables = Exact<{
  agentId?: string | null | undefined;
}>;


export type ReconcileContinuityMutation = { reconcileContinuity: { ownersChecked: number, failed: Array<string>, interrupted: Array<{ id: string, runId: string, agentId: string, sessionId: string | null, project: string | null, state: ContinuityRunState, generation: number, ownerId: string, head: string, headRevision: number, finalResult: string | null, interruptionManifest: unknown, recoveryQueue: unknown, effectCount: number, createdAt: string, updatedAt: string, completedAt: string | null, interruptedAt: string | null }>, recoveryPending: Array<{ id: string, runId: string, agentId: string, sessionId: string | null, project: string | null, state: ContinuityRunState, generation: number, ownerId: string, head: string, headRevision: number, finalResult: string | null, interruptionManifest: unknown, recoveryQueue: unknown, effectCount: number, createdAt: string, updatedAt: string, completedAt: string | null, interruptedAt: string | null }> } };

export type ContinuityEventsSubscriptionVariables = Exact<{
  agentId: string;
  runId: string;
  after?: number | null | undefined;
}>;


export type ContinuityEventsSubscription = { continuityEvents: { sequence: number, agentId: string, stream: string, type: string, subjectId: string, project: string | null, occurredAt: string, payload: unknown } };

export type RuntimeOwnershipSubscriptionVariables = Exact<{
  agentId?: string | null | undefined;
}>;


export type RuntimeOwnershipSubscription = { runtimeOwnership: { ownerId: string, agentId: string, instance: string, openedAt: string, live: boolean, ended: string | null } };

export const ProfileDocumentFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ProfileDocumentFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ProfileDocument"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"agentId"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"content"}},{"kind":"Field","name":{"kind":"Name","value":"revision"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedBy"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"id"}}]}},{"kind":"Field","name":{"kind":"Name","value":"reference"}}]}}]} as unknown as DocumentNode;
export const ErrorFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ErrorFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ValidationFailed"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"field"}},{"kind":"Field","name":{"kind":"Name","value":"limit"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"RevisionConflict"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"expectedRevision"}},{"kind":"Field","name":{"kind":"Name","value":"currentRevision"}},{"kind":"Field","name":{"kind":"Name","value":"currentContent"}},{"kind":"Field","name":{"kind":"Name","value":"currentValue"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"NotFound"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"resource"}},{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}}]} as unknown as DocumentNode;
export const AgentEventFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"AgentEventFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"AgentEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"sequence"}},{"kind":"Field","name":{"kind":"Name","value":"agentId"}},{"kind":"Field","name":{"kind":"Name","value":"stream"}},{"kind":"Field","name":{"kind":"Name","value":"type"}},{"kind":"Field","name":{"kind":"Name","value":"subjectId"}},{"kind":"Field","name":{"kind":"Name","value":"project"}},{"kind":"Field","name":{"kind":"Name","value":"occurredAt"}},{"kind":"Field","name":{"kind":"Name","value":"payload"}}]}}]} as unknown as DocumentNode;
export const ContinuityRunFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ContinuityRunFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ContinuityRun"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"runId"}},{"kind":"Field","name":{"kind":"Name","value":"agentId"}},{"kind":"Field","name":{"kind":"Name","value":"sessionId"}},{"kind":"Field","name":{"kind":"Name","value":"project"}},{"kind":"Field","name":{"kind":"Name","value":"state"}},{"kind":"Field","name":{"kind":"Name","value":"generation"}},{"kind":"Field","name":{"kind":"Name","value":"ownerId"}},{"kind":"Field","name":{"kind":"Name","value":"head"}},{"kind":"Field","name":{"kind":"Name","value":"headRevision"}},{"kind":"Field","name":{"kind":"Name","value":"finalResult"}},{"kind":"Field","name":{"kind":"Name","value":"interruptionManifest"}},{"kind":"Field","name":{"kind":"Name","value":"recoveryQueue"}},{"kind":"Field","name":{"kind":"Name","value":"effectCount"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"completedAt"}},{"kind":"Field","name":{"kind":"Name","value":"interruptedAt"}}]}}]} as unknown as DocumentNode;
export const ContinuityEffectFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ContinuityEffectFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ContinuityEffect"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"effectId"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"request"}},{"kind":"Field","name":{"kind":"Name","value":"outcome"}},{"kind":"Field","name":{"kind":"Name","value":"receipt"}},{"kind":"Field","name":{"kind":"Name","value":"intendedGeneration"}},{"kind":"Field","name":{"kind":"Name","value":"intendedBy"}},{"kind":"Field","name":{"kind":"Name","value":"intendedAt"}},{"kind":"Field","name":{"kind":"Name","value":"receiptGeneration"}},{"kind":"Field","name":{"kind":"Name","value":"receiptBy"}},{"kind":"Field","name":{"kind":"Name","value":"receiptAt"}}]}}]} as unknown as DocumentNode;
export const ContinuityErrorFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ContinuityErrorFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ValidationFailed"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"field"}},{"kind":"Field","name":{"kind":"Name","value":"limit"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"NotFound"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"resource"}},{"kind":"Field","name":{"kind":"Name","value":"id"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ContinuityFenceRejected"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"runId"}},{"kind":"Field","name":{"kind":"Name","value":"currentState"}},{"kind":"Field","name":{"kind":"Name","value":"currentGeneration"}}]}}]}}]} as unknown as DocumentNode;
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
export const ContinuityRunDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"continuityRun"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"runId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"agentId"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"continuityRun"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"runId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"runId"}}},{"kind":"Argument","name":{"kind":"Name","value":"agentId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"agentId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ContinuityRunFields"}},{"kind":"Field","name":{"kind":"Name","value":"effects"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ContinuityEffectFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"transitions"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"position"}},{"kind":"Field","name":{"kind":"Name","value":"from"}},{"kind":"Field","name":{"kind":"Name","value":"to"}},{"kind":"Field","name":{"kind":"Name","value":"generation"}},{"kind":"Field","name":{"kind":"Name","value":"ownerId"}},{"kind":"Field","name":{"kind":"Name","value":"reason"}},{"kind":"Field","name":{"kind":"Name","value":"sequence"}},{"kind":"Field","name":{"kind":"Name","value":"at"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ContinuityRunFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ContinuityRun"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"runId"}},{"kind":"Field","name":{"kind":"Name","value":"agentId"}},{"kind":"Field","name":{"kind":"Name","value":"sessionId"}},{"kind":"Field","name":{"kind":"Name","value":"project"}},{"kind":"Field","name":{"kind":"Name","value":"state"}},{"kind":"Field","name":{"kind":"Name","value":"generation"}},{"kind":"Field","name":{"kind":"Name","value":"ownerId"}},{"kind":"Field","name":{"kind":"Name","value":"head"}},{"kind":"Field","name":{"kind":"Name","value":"headRevision"}},{"kind":"Field","name":{"kind":"Name","value":"finalResult"}},{"kind":"Field","name":{"kind":"Name","value":"interruptionManifest"}},{"kind":"Field","name":{"kind":"Name","value":"recoveryQueue"}},{"kind":"Field","name":{"kind":"Name","value":"effectCount"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"completedAt"}},{"kind":"Field","name":{"kind":"Name","value":"interruptedAt"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ContinuityEffectFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ContinuityEffect"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"effectId"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"request"}},{"kind":"Field","name":{"kind":"Name","value":"outcome"}},{"kind":"Field","name":{"kind":"Name","value":"receipt"}},{"kind":"Field","name":{"kind":"Name","value":"intendedGeneration"}},{"kind":"Field","name":{"kind":"Name","value":"intendedBy"}},{"kind":"Field","name":{"kind":"Name","value":"intendedAt"}},{"kind":"Field","name":{"kind":"Name","value":"receiptGeneration"}},{"kind":"Field","name":{"kind":"Name","value":"receiptBy"}},{"kind":"Field","name":{"kind":"Name","value":"receiptAt"}}]}}]} as unknown as DocumentNode;
export const ContinuityRunsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"continuityRuns"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"agentId"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"states"}},"type":{"kind":"ListType","type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ContinuityRunState"}}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"continuityRuns"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"agentId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"agentId"}}},{"kind":"Argument","name":{"kind":"Name","value":"states"},"value":{"kind":"Variable","name":{"kind":"Name","value":"states"}}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"cursor"}},{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ContinuityRunFields"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ContinuityRunFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ContinuityRun"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"runId"}},{"kind":"Field","name":{"kind":"Name","value":"agentId"}},{"kind":"Field","name":{"kind":"Name","value":"sessionId"}},{"kind":"Field","name":{"kind":"Name","value":"project"}},{"kind":"Field","name":{"kind":"Name","value":"state"}},{"kind":"Field","name":{"kind":"Name","value":"generation"}},{"kind":"Field","name":{"kind":"Name","value":"ownerId"}},{"kind":"Field","name":{"kind":"Name","value":"head"}},{"kind":"Field","name":{"kind":"Name","value":"headRevision"}},{"kind":"Field","name":{"kind":"Name","value":"finalResult"}},{"kind":"Field","name":{"kind":"Name","value":"interruptionManifest"}},{"kind":"Field","name":{"kind":"Name","value":"recoveryQueue"}},{"kind":"Field","name":{"kind":"Name","value":"effectCount"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"completedAt"}},{"kind":"Field","name":{"kind":"Name","value":"interruptedAt"}}]}}]} as unknown as DocumentNode;
export const ContinuityOwnersDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"continuityOwners"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"agentId"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"includeClosed"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Boolean"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"continuityOwners"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"agentId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"agentId"}}},{"kind":"Argument","name":{"kind":"Name","value":"includeClosed"},"value":{"kind":"Variable","name":{"kind":"Name","value":"includeClosed"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"ownerId"}},{"kind":"Field","name":{"kind":"Name","value":"agentId"}},{"kind":"Field","name":{"kind":"Name","value":"instance"}},{"kind":"Field","name":{"kind":"Name","value":"openedAt"}},{"kind":"Field","name":{"kind":"Name","value":"closedAt"}},{"kind":"Field","name":{"kind":"Name","value":"live"}}]}}]}}]} as unknown as DocumentNode;
export const StartContinuityRunDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"startContinuityRun"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"StartContinuityRunInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"startContinuityRun"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"StartContinuityRunSuccess"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"run"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ContinuityRunFields"}}]}}]}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"ContinuityErrorFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ContinuityRunFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ContinuityRun"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"runId"}},{"kind":"Field","name":{"kind":"Name","value":"agentId"}},{"kind":"Field","name":{"kind":"Name","value":"sessionId"}},{"kind":"Field","name":{"kind":"Name","value":"project"}},{"kind":"Field","name":{"kind":"Name","value":"state"}},{"kind":"Field","name":{"kind":"Name","value":"generation"}},{"kind":"Field","name":{"kind":"Name","value":"ownerId"}},{"kind":"Field","name":{"kind":"Name","value":"head"}},{"kind":"Field","name":{"kind":"Name","value":"headRevision"}},{"kind":"Field","name":{"kind":"Name","value":"finalResult"}},{"kind":"Field","name":{"kind":"Name","value":"interruptionManifest"}},{"kind":"Field","name":{"kind":"Name","value":"recoveryQueue"}},{"kind":"Field","name":{"kind":"Name","value":"effectCount"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"completedAt"}},{"kind":"Field","name":{"kind":"Name","value":"interruptedAt"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ContinuityErrorFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ValidationFailed"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"field"}},{"kind":"Field","name":{"kind":"Name","value":"limit"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"NotFound"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"resource"}},{"kind":"Field","name":{"kind":"Name","value":"id"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ContinuityFenceRejected"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"runId"}},{"kind":"Field","name":{"kind":"Name","value":"currentState"}},{"kind":"Field","name":{"kind":"Name","value":"currentGeneration"}}]}}]}}]} as unknown as DocumentNode;
export const CommitContinuityRunDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"commitContinuityRun"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"CommitContinuityRunInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"commitContinuityRun"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"CommitContinuityRunSuccess"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"run"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ContinuityRunFields"}}]}}]}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"ContinuityErrorFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ContinuityRunFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ContinuityRun"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"runId"}},{"kind":"Field","name":{"kind":"Name","value":"agentId"}},{"kind":"Field","name":{"kind":"Name","value":"sessionId"}},{"kind":"Field","name":{"kind":"Name","value":"project"}},{"kind":"Field","name":{"kind":"Name","value":"state"}},{"kind":"Field","name":{"kind":"Name","value":"generation"}},{"kind":"Field","name":{"kind":"Name","value":"ownerId"}},{"kind":"Field","name":{"kind":"Name","value":"head"}},{"kind":"Field","name":{"kind":"Name","value":"headRevision"}},{"kind":"Field","name":{"kind":"Name","value":"finalResult"}},{"kind":"Field","name":{"kind":"Name","value":"interruptionManifest"}},{"kind":"Field","name":{"kind":"Name","value":"recoveryQueue"}},{"kind":"Field","name":{"kind":"Name","value":"effectCount"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"completedAt"}},{"kind":"Field","name":{"kind":"Name","value":"interruptedAt"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ContinuityErrorFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ValidationFailed"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"field"}},{"kind":"Field","name":{"kind":"Name","value":"limit"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"NotFound"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"resource"}},{"kind":"Field","name":{"kind":"Name","value":"id"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ContinuityFenceRejected"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"runId"}},{"kind":"Field","name":{"kind":"Name","value":"currentState"}},{"kind":"Field","name":{"kind":"Name","value":"currentGeneration"}}]}}]}}]} as unknown as DocumentNode;
export const RecordContinuityEffectDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"recordContinuityEffect"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"RecordContinuityEffectInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"recordContinuityEffect"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"RecordContinuityEffectSuccess"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"effect"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ContinuityEffectFields"}}]}}]}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"ContinuityErrorFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ContinuityEffectFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ContinuityEffect"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"effectId"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"request"}},{"kind":"Field","name":{"kind":"Name","value":"outcome"}},{"kind":"Field","name":{"kind":"Name","value":"receipt"}},{"kind":"Field","name":{"kind":"Name","value":"intendedGeneration"}},{"kind":"Field","name":{"kind":"Name","value":"intendedBy"}},{"kind":"Field","name":{"kind":"Name","value":"intendedAt"}},{"kind":"Field","name":{"kind":"Name","value":"receiptGeneration"}},{"kind":"Field","name":{"kind":"Name","value":"receiptBy"}},{"kind":"Field","name":{"kind":"Name","value":"receiptAt"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ContinuityErrorFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ValidationFailed"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"field"}},{"kind":"Field","name":{"kind":"Name","value":"limit"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"NotFound"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"resource"}},{"kind":"Field","name":{"kind":"Name","value":"id"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ContinuityFenceRejected"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"runId"}},{"kind":"Field","name":{"kind":"Name","value":"currentState"}},{"kind":"Field","name":{"kind":"Name","value":"currentGeneration"}}]}}]}}]} as unknown as DocumentNode;
export const RecordContinuityReceiptDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"recordContinuityReceipt"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"RecordContinuityReceiptInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"recordContinuityReceipt"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"RecordContinuityReceiptSuccess"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"effect"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ContinuityEffectFields"}}]}}]}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"ContinuityErrorFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ContinuityEffectFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ContinuityEffect"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"effectId"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"request"}},{"kind":"Field","name":{"kind":"Name","value":"outcome"}},{"kind":"Field","name":{"kind":"Name","value":"receipt"}},{"kind":"Field","name":{"kind":"Name","value":"intendedGeneration"}},{"kind":"Field","name":{"kind":"Name","value":"intendedBy"}},{"kind":"Field","name":{"kind":"Name","value":"intendedAt"}},{"kind":"Field","name":{"kind":"Name","value":"receiptGeneration"}},{"kind":"Field","name":{"kind":"Name","value":"receiptBy"}},{"kind":"Field","name":{"kind":"Name","value":"receiptAt"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ContinuityErrorFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ValidationFailed"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"field"}},{"kind":"Field","name":{"kind":"Name","value":"limit"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"NotFound"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"resource"}},{"kind":"Field","name":{"kind":"Name","value":"id"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ContinuityFenceRejected"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"runId"}},{"kind":"Field","name":{"kind":"Name","value":"currentState"}},{"kind":"Field","name":{"kind":"Name","value":"currentGeneration"}}]}}]}}]} as unknown as DocumentNode;
export const FinalizeContinuityRunDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"finalizeContinuityRun"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"FinalizeContinuityRunInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"finalizeContinuityRun"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"FinalizeContinuityRunSuccess"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"run"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ContinuityRunFields"}}]}}]}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"ContinuityErrorFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ContinuityRunFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ContinuityRun"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"runId"}},{"kind":"Field","name":{"kind":"Name","value":"agentId"}},{"kind":"Field","name":{"kind":"Name","value":"sessionId"}},{"kind":"Field","name":{"kind":"Name","value":"project"}},{"kind":"Field","name":{"kind":"Name","value":"state"}},{"kind":"Field","name":{"kind":"Name","value":"generation"}},{"kind":"Field","name":{"kind":"Name","value":"ownerId"}},{"kind":"Field","name":{"kind":"Name","value":"head"}},{"kind":"Field","name":{"kind":"Name","value":"headRevision"}},{"kind":"Field","name":{"kind":"Name","value":"finalResult"}},{"kind":"Field","name":{"kind":"Name","value":"interruptionManifest"}},{"kind":"Field","name":{"kind":"Name","value":"recoveryQueue"}},{"kind":"Field","name":{"kind":"Name","value":"effectCount"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"completedAt"}},{"kind":"Field","name":{"kind":"Name","value":"interruptedAt"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ContinuityErrorFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ValidationFailed"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"field"}},{"kind":"Field","name":{"kind":"Name","value":"limit"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"NotFound"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"resource"}},{"kind":"Field","name":{"kind":"Name","value":"id"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ContinuityFenceRejected"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"runId"}},{"kind":"Field","name":{"kind":"Name","value":"currentState"}},{"kind":"Field","name":{"kind":"Name","value":"currentGeneration"}}]}}]}}]} as unknown as DocumentNode;
export const CompleteContinuityRunDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"completeContinuityRun"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"CompleteContinuityRunInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"completeContinuityRun"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"CompleteContinuityRunSuccess"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"run"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ContinuityRunFields"}}]}}]}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"ContinuityErrorFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ContinuityRunFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ContinuityRun"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"runId"}},{"kind":"Field","name":{"kind":"Name","value":"agentId"}},{"kind":"Field","name":{"kind":"Name","value":"sessionId"}},{"kind":"Field","name":{"kind":"Name","value":"project"}},{"kind":"Field","name":{"kind":"Name","value":"state"}},{"kind":"Field","name":{"kind":"Name","value":"generation"}},{"kind":"Field","name":{"kind":"Name","value":"ownerId"}},{"kind":"Field","name":{"kind":"Name","value":"head"}},{"kind":"Field","name":{"kind":"Name","value":"headRevision"}},{"kind":"Field","name":{"kind":"Name","value":"finalResult"}},{"kind":"Field","name":{"kind":"Name","value":"interruptionManifest"}},{"kind":"Field","name":{"kind":"Name","value":"recoveryQueue"}},{"kind":"Field","name":{"kind":"Name","value":"effectCount"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"completedAt"}},{"kind":"Field","name":{"kind":"Name","value":"interruptedAt"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ContinuityErrorFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ValidationFailed"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"field"}},{"kind":"Field","name":{"kind":"Name","value":"limit"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"NotFound"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"resource"}},{"kind":"Field","name":{"kind":"Name","value":"id"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ContinuityFenceRejected"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"runId"}},{"kind":"Field","name":{"kind":"Name","value":"currentState"}},{"kind":"Field","name":{"kind":"Name","value":"currentGeneration"}}]}}]}}]} as unknown as DocumentNode;
export const InterruptContinuityRunDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"interruptContinuityRun"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"InterruptContinuityRunInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"interruptContinuityRun"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"InterruptContinuityRunSuccess"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"run"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ContinuityRunFields"}}]}}]}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"ContinuityErrorFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ContinuityRunFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ContinuityRun"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"runId"}},{"kind":"Field","name":{"kind":"Name","value":"agentId"}},{"kind":"Field","name":{"kind":"Name","value":"sessionId"}},{"kind":"Field","name":{"kind":"Name","value":"project"}},{"kind":"Field","name":{"kind":"Name","value":"state"}},{"kind":"Field","name":{"kind":"Name","value":"generation"}},{"kind":"Field","name":{"kind":"Name","value":"ownerId"}},{"kind":"Field","name":{"kind":"Name","value":"head"}},{"kind":"Field","name":{"kind":"Name","value":"headRevision"}},{"kind":"Field","name":{"kind":"Name","value":"finalResult"}},{"kind":"Field","name":{"kind":"Name","value":"interruptionManifest"}},{"kind":"Field","name":{"kind":"Name","value":"recoveryQueue"}},{"kind":"Field","name":{"kind":"Name","value":"effectCount"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"completedAt"}},{"kind":"Field","name":{"kind":"Name","value":"interruptedAt"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ContinuityErrorFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ValidationFailed"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"field"}},{"kind":"Field","name":{"kind":"Name","value":"limit"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"NotFound"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"resource"}},{"kind":"Field","name":{"kind":"Name","value":"id"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ContinuityFenceRejected"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"runId"}},{"kind":"Field","name":{"kind":"Name","value":"currentState"}},{"kind":"Field","name":{"kind":"Name","value":"currentGeneration"}}]}}]}}]} as unknown as DocumentNode;
export const ClaimContinuityRecoveryDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"claimContinuityRecovery"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ClaimContinuityRecoveryInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"claimContinuityRecovery"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ClaimContinuityRecoverySuccess"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"run"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ContinuityRunFields"}}]}}]}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"ContinuityErrorFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ContinuityRunFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ContinuityRun"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"runId"}},{"kind":"Field","name":{"kind":"Name","value":"agentId"}},{"kind":"Field","name":{"kind":"Name","value":"sessionId"}},{"kind":"Field","name":{"kind":"Name","value":"project"}},{"kind":"Field","name":{"kind":"Name","value":"state"}},{"kind":"Field","name":{"kind":"Name","value":"generation"}},{"kind":"Field","name":{"kind":"Name","value":"ownerId"}},{"kind":"Field","name":{"kind":"Name","value":"head"}},{"kind":"Field","name":{"kind":"Name","value":"headRevision"}},{"kind":"Field","name":{"kind":"Name","value":"finalResult"}},{"kind":"Field","name":{"kind":"Name","value":"interruptionManifest"}},{"kind":"Field","name":{"kind":"Name","value":"recoveryQueue"}},{"kind":"Field","name":{"kind":"Name","value":"effectCount"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"completedAt"}},{"kind":"Field","name":{"kind":"Name","value":"interruptedAt"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ContinuityErrorFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ValidationFailed"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"field"}},{"kind":"Field","name":{"kind":"Name","value":"limit"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"NotFound"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"resource"}},{"kind":"Field","name":{"kind":"Name","value":"id"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ContinuityFenceRejected"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"runId"}},{"kind":"Field","name":{"kind":"Name","value":"currentState"}},{"kind":"Field","name":{"kind":"Name","value":"currentGeneration"}}]}}]}}]} as unknown as DocumentNode;
export const ReconcileContinuityDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"reconcileContinuity"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"agentId"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"reconcileContinuity"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"agentId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"agentId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"ownersChecked"}},{"kind":"Field","name":{"kind":"Name","value":"failed"}},{"kind":"Field","name":{"kind":"Name","value":"interrupted"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ContinuityRunFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"recoveryPending"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ContinuityRunFields"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ContinuityRunFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ContinuityRun"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"runId"}},{"kind":"Field","name":{"kind":"Name","value":"agentId"}},{"kind":"Field","name":{"kind":"Name","value":"sessionId"}},{"kind":"Field","name":{"kind":"Name","value":"project"}},{"kind":"Field","name":{"kind":"Name","value":"state"}},{"kind":"Field","name":{"kind":"Name","value":"generation"}},{"kind":"Field","name":{"kind":"Name","value":"ownerId"}},{"kind":"Field","name":{"kind":"Name","value":"head"}},{"kind":"Field","name":{"kind":"Name","value":"headRevision"}},{"kind":"Field","name":{"kind":"Name","value":"finalResult"}},{"kind":"Field","name":{"kind":"Name","value":"interruptionManifest"}},{"kind":"Field","name":{"kind":"Name","value":"recoveryQueue"}},{"kind":"Field","name":{"kind":"Name","value":"effectCount"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"completedAt"}},{"kind":"Field","name":{"kind":"Name","value":"interruptedAt"}}]}}]} as unknown as DocumentNode;
export const ContinuityEventsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"continuityEvents"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"agentId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"runId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"continuityEvents"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"agentId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"agentId"}}},{"kind":"Argument","name":{"kind":"Name","value":"runId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"runId"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"AgentEventFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"AgentEventFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"AgentEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"sequence"}},{"kind":"Field","name":{"kind":"Name","value":"agentId"}},{"kind":"Field","name":{"kind":"Name","value":"stream"}},{"kind":"Field","name":{"kind":"Name","value":"type"}},{"kind":"Field","name":{"kind":"Name","value":"subjectId"}},{"kind":"Field","name":{"kind":"Name","value":"project"}},{"kind":"Field","name":{"kind":"Name","value":"occurredAt"}},{"kind":"Field","name":{"kind":"Name","value":"payload"}}]}}]} as unknown as DocumentNode;
export const RuntimeOwnershipDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"runtimeOwnership"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"agentId"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"runtimeOwnership"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"agentId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"agentId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"ownerId"}},{"kind":"Field","name":{"kind":"Name","value":"agentId"}},{"kind":"Field","name":{"kind":"Name","value":"instance"}},{"kind":"Field","name":{"kind":"Name","value":"openedAt"}},{"kind":"Field","name":{"kind":"Name","value":"live"}},{"kind":"Field","name":{"kind":"Name","value":"ended"}}]}}]}}]} as unknown as DocumentNode;
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
    continuityRun(variables: ContinuityRunQueryVariables, options?: C): Promise<ContinuityRunQuery> {
      return requester<ContinuityRunQuery, ContinuityRunQueryVariables>(ContinuityRunDocument, variables, options) as Promise<ContinuityRunQuery>;
    },
    continuityRuns(variables?: ContinuityRunsQueryVariables, options?: C): Promise<ContinuityRunsQuery> {
      return requester<ContinuityRunsQuery, ContinuityRunsQueryVariables>(ContinuityRunsDocument, variables, options) as Promise<ContinuityRunsQuery>;
    },
    continuityOwners(variables?: ContinuityOwnersQueryVariables, options?: C): Promise<ContinuityOwnersQuery> {
      return requester<ContinuityOwnersQuery, ContinuityOwnersQueryVariables>(ContinuityOwnersDocument, variables, options) as Promise<ContinuityOwnersQuery>;
    },
    startContinuityRun(variables: StartContinuityRunMutationVariables, options?: C): Promise<StartContinuityRunMutation> {
      return requester<StartContinuityRunMutation, StartContinuityRunMutationVariables>(StartContinuityRunDocument, variables, options) as Promise<StartContinuityRunMutation>;
    },
    commitContinuityRun(variables: CommitContinuityRunMutationVariables, options?: C): Promise<CommitContinuityRunMutation> {
      return requester<CommitContinuityRunMutation, CommitContinuityRunMutationVariables>(CommitContinuityRunDocument, variables, options) as Promise<CommitContinuityRunMutation>;
    },
    recordContinuityEffect(variables: RecordContinuityEffectMutationVariables, options?: C): Promise<RecordContinuityEffectMutation> {
      return requester<RecordContinuityEffectMutation, RecordContinuityEffectMutationVariables>(RecordContinuityEffectDocument, variables, options) as Promise<RecordContinuityEffectMutation>;
    },
    recordContinuityReceipt(variables: RecordContinuityReceiptMutationVariables, options?: C): Promise<RecordContinuityReceiptMutation> {
      return requester<RecordContinuityReceiptMutation, RecordContinuityReceiptMutationVariables>(RecordContinuityReceiptDocument, variables, options) as Promise<RecordContinuityReceiptMutation>;
    },
    finalizeContinuityRun(variables: FinalizeContinuityRunMutationVariables, options?: C): Promise<FinalizeContinuityRunMutation> {
      return requester<FinalizeContinuityRunMutation, FinalizeContinuityRunMutationVariables>(FinalizeContinuityRunDocument, variables, options) as Promise<FinalizeContinuityRunMutation>;
    },
    completeContinuityRun(variables: CompleteContinuityRunMutationVariables, options?: C): Promise<CompleteContinuityRunMutation> {
      return requester<CompleteContinuityRunMutation, CompleteContinuityRunMutationVariables>(CompleteContinuityRunDocument, variables, options) as Promise<CompleteContinuityRunMutation>;
    },
    interruptContinuityRun(variables: InterruptContinuityRunMutationVariables, options?: C): Promise<InterruptContinuityRunMutation> {
      return requester<InterruptContinuityRunMutation, InterruptContinuityRunMutationVariables>(InterruptContinuityRunDocument, variables, options) as Promise<InterruptContinuityRunMutation>;
    },
    claimContinuityRecovery(variables: ClaimContinuityRecoveryMutationVariables, options?: C): Promise<ClaimContinuityRecoveryMutation> {
      return requester<ClaimContinuityRecoveryMutation, ClaimContinuityRecoveryMutationVariables>(ClaimContinuityRecoveryDocument, variables, options) as Promise<ClaimContinuityRecoveryMutation>;
    },
    reconcileContinuity(variables?: ReconcileContinuityMutationVariables, options?: C): Promise<ReconcileContinuityMutation> {
      return requester<ReconcileContinuityMutation, ReconcileContinuityMutationVariables>(ReconcileContinuityDocument, variables, options) as Promise<ReconcileContinuityMutation>;
    },
    continuityEvents(variables: ContinuityEventsSubscriptionVariables, options?: C): AsyncIterable<ContinuityEventsSubscription> {
      return requester<ContinuityEventsSubscription, ContinuityEventsSubscriptionVariables>(ContinuityEventsDocument, variables, options) as AsyncIterable<ContinuityEventsSubscription>;
    },
    runtimeOwnership(variables?: RuntimeOwnershipSubscriptionVariables, options?: C): AsyncIterable<RuntimeOwnershipSubscription> {
      return requester<RuntimeOwnershipSubscription, RuntimeOwnershipSubscriptionVariables>(RuntimeOwnershipDocument, variables, options) as AsyncIterable<RuntimeOwnershipSubscription>;
    }
  };
}
export type Sdk = ReturnType<typeof getSdk>;