/**
 * The GraphQL types of a memory: BrainMemory with its ownership, revisions and the legacy
 * migration details of an Albdruck import.
 */
import { builder } from '../../schema/builder.js';
import { GLOBAL_ID_DESCRIPTION } from '../../schema/node-keys.js';
import { pageSize } from '../../lib/cursor.js';
import { ActorRef, type Principal } from '../../schema/actor.js';
import { connectionType } from '../../schema/connections.js';
import { agentScopedKey, brainMemoryNodeKey, parseAgentScopedKey, parsePositionKey } from '../../schema/node-keys.js';
import { addAgentLink } from '../agents/agents.graphql.js';
import type { BrainMemoryRow, BrainRevisionRow } from './brains.types.js';

const BrainOwnershipEnum = builder.enumType('BrainOwnership', {
  description: 'Who owns a memory: once an operator wrote it, agents can neither update nor remove it',
  values: {
    OPERATOR: { description: 'Last written by an operator: agents can read it but neither update nor remove it' },
    AGENT: { description: 'Written by its agent (or never touched by an operator): the agent may update and remove it' },
  } satisfies Record<Principal, object>,
});
const BrainRevisionActionEnum = builder.enumType('BrainRevisionAction', {
  description: 'What a revision of a memory did',
  values: {
    CREATED: { description: 'brainSave created the memory (revision 1)' },
    UPDATED: { description: 'brainUpdate changed title, content or source references' },
    REMOVED: { description: 'brainRemove or brainRemoveMany wrote the tombstone' },
    IMPORTED: { description: 'The Albdruck import created the memory' },
  },
});

const BrainRevisionRef = builder.objectRef<BrainRevisionRow>('BrainMemoryRevision');
builder.node(BrainRevisionRef, {
  description: 'One revision of a memory as it was written: revisions are never changed or removed',
  id: { description: GLOBAL_ID_DESCRIPTION, resolve: (r) => agentScopedKey(r.agentId, JSON.stringify([r.memoryId, r.revision])) },
  // Read as brainRead reads its memory: another agent's token gets AGENT_MISMATCH; a removed memory's revisions are null.
  loadOne: (key, ctx) => {
    const { agentId, recordId } = parseAgentScopedKey(key);
    const entry = parsePositionKey(recordId);
    return entry ? ctx.services.brains.readRevision(ctx.viewer, { agentId, memoryId: entry.id, revision: entry.position }) : null;
  },
  fields: (t) => ({
    memoryId: t.exposeString('memoryId', { description: 'The memory this revision belongs to (`BrainMemory.memoryId`)' }),
    agentId: t.exposeString('agentId', { description: "The owning agent's id" }),
    revision: t.exposeInt('revision', { description: 'The revision number, 1 for the first' }),
    action: t.field({ type: BrainRevisionActionEnum, description: 'What this revision did', resolve: (r) => r.action.toUpperCase() as 'CREATED' }),
    title: t.exposeString('title', { description: 'The title at this revision' }),
    content: t.exposeString('content', { description: 'The content at this revision' }),
    sourceRefs: t.exposeStringList('sourceRefs', { description: 'The source references at this revision' }),
    ownership: t.field({ type: BrainOwnershipEnum, description: 'The ownership after this revision', resolve: (r) => r.ownership as Principal }),
    actor: t.field({ type: ActorRef, description: 'Who wrote this revision', resolve: (r) => ({ kind: r.actorKind, id: r.actorId }) }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When this revision was written' }),
  }),
});

interface LegacyDetails {
  source: string;
  knowledgeId: string;
  scope: string;
  legacyOwnerAgentId: string | null;
  status: string;
  operatorCorrected: boolean;
  operatorDeleted: boolean;
  importedAt: string;
  importedBy: { kind: string; id: string };
  truncated: { title: boolean; content: boolean; sourceRefs: boolean };
  evidence: unknown[];
  snapshots: unknown[];
}

const LegacyScopeEnum = builder.enumType('BrainLegacyScope', {
  description: 'The scope a legacy Albdruck record had',
  values: {
    AGENT: { description: 'Owned by one agent in Albdruck; imported to that agent' },
    GLOBAL: { description: 'Global in Albdruck; imported to the agent hatchet' },
  },
});

const BrainLegacyMigrationRef = builder.objectRef<LegacyDetails>('BrainLegacyMigration').implement({
  description: 'Legacy migration details of a memory imported from Albdruck',
  fields: (t) => ({
    source: t.exposeString('source', { description: 'Where the record came from (the legacy table)' }),
    legacyId: t.exposeString('knowledgeId', { description: 'The record id in Albdruck' }),
    legacyScope: t.field({
      type: LegacyScopeEnum,
      description: "The record's scope in Albdruck",
      resolve: (d) => (d.scope === 'global' ? 'GLOBAL' : 'AGENT'),
    }),
    legacyOwnerAgentId: t.exposeString('legacyOwnerAgentId', { nullable: true, description: 'The owning agent in Albdruck; null for global records' }),
    legacyStatus: t.exposeString('status', {
      description: "The record's status in Albdruck, verbatim: legacy data, whose set of values Burrow does not control",
    }),
    operatorCorrected: t.exposeBoolean('operatorCorrected', { description: 'An operator had corrected the record in Albdruck: the memory is operator-owned' }),
    operatorDeleted: t.exposeBoolean('operatorDeleted', { description: 'An operator had deleted the record in Albdruck: it was imported as removed' }),
    importedAt: t.field({ type: 'DateTime', description: 'When the import copied the record', resolve: (d) => new Date(d.importedAt) }),
    importedBy: t.field({ type: ActorRef, description: 'Who ran the import', resolve: (d) => d.importedBy }),
    truncated: t.boolean({
      description: 'Title, content or source references were cut to the Brains limits; the legacy tables keep the original',
      resolve: (d) => d.truncated.title || d.truncated.content || d.truncated.sourceRefs,
    }),
    evidenceCount: t.int({ description: 'How many evidence entries the legacy record had (in `details`)', resolve: (d) => d.evidence.length }),
    snapshotCount: t.int({ description: 'How many revision snapshots the legacy record had (in `details`)', resolve: (d) => d.snapshots.length }),
    details: t.field({ type: 'JSON', description: 'Everything preserved from the legacy record: evidence and revision snapshots', resolve: (d) => d }),
  }),
});

export const BrainMemoryRef = builder.objectRef<BrainMemoryRow>('BrainMemory');
builder.node(BrainMemoryRef, {
  description: 'An explicit saved memory: one owning agent, no TTL, never loaded into prompts automatically',
  id: { description: GLOBAL_ID_DESCRIPTION, resolve: brainMemoryNodeKey },
  // node(id) reads as brainRead does: an agent token of another agent gets AGENT_MISMATCH.
  loadOne: (key, ctx) => {
    const { agentId, recordId } = parseAgentScopedKey(key);
    return ctx.services.brains.read(ctx.viewer, { agentId, id: recordId });
  },
  fields: (t) => ({
    memoryId: t.exposeString('id', { description: 'The memory id every brain verb takes (`memoryId:`); generated, immutable, unique within its agent' }),
    agentId: t.exposeString('agentId', { description: "The owning agent's id" }),
    title: t.exposeString('title', { description: 'A short headline' }),
    content: t.exposeString('content', { description: 'The memory itself' }),
    sourceRefs: t.exposeStringList('sourceRefs', { description: 'References as given; a reference is not verification of current state' }),
    revision: t.exposeInt('revision', { description: 'The current revision; brainUpdate and brainRemove need it as expectedRevision' }),
    ownership: t.field({ type: BrainOwnershipEnum, description: 'Who owns it now', resolve: (m) => m.ownership as Principal }),
    labels: t.stringList({
      description: 'Labels of the memory: at most one today (the Albdruck import labels what it imported); a list so more can come without a breaking change',
      resolve: (m) => (m.label ? [m.label] : []),
    }),
    createdBy: t.field({ type: ActorRef, description: 'Who created it', resolve: (m) => ({ kind: m.createdByKind, id: m.createdById }) }),
    updatedBy: t.field({ type: ActorRef, description: 'Who wrote the current revision', resolve: (m) => ({ kind: m.updatedByKind, id: m.updatedById }) }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was created' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', description: 'When the current revision was written' }),
    deleted: t.boolean({
      description:
        'True on the result of a removal and on a tombstone read with `asOf` (removed memories are hidden from every read without it); kept so that result says what happened',
      resolve: (m) => m.deletedAt !== null,
    }),
    purgedAt: t.expose('purgedAt', {
      type: 'DateTime',
      nullable: true,
      description: 'When an operator purged this removed memory (brainPurge): title, content and source references of it and every revision are empty since; null otherwise',
    }),
    purgedBy: t.field({
      type: ActorRef,
      nullable: true,
      description: 'The operator who purged it; null unless purged',
      resolve: (m) => (m.purgedByKind && m.purgedById ? { kind: m.purgedByKind, id: m.purgedById } : null),
    }),
    deletedAt: t.expose('deletedAt', {
      type: 'DateTime',
      nullable: true,
      description: 'When the memory was removed (its tombstone), as of the read: null while it is live; set on the result of a removal and on tombstones read with `asOf`',
    }),
    legacyMigration: t.field({
      type: BrainLegacyMigrationRef,
      nullable: true,
      description: 'Where an imported memory came from; null for memories saved in Burrow',
      resolve: (m) => (m.legacy as LegacyDetails | null) ?? null,
    }),
    revisions: t.loadableList({
      type: BrainRevisionRef,
      description:
        'Every revision up to this one (`revision`), newest first, with its actor (batched: one statement for a whole page). On a memory read with `asOf`, the revisions written by then.',
      args: { first: t.arg.int({ required: false, description: 'How many revisions: 1 to 500; 100 when absent' }) },
      byPath: true,
      load: (keys: string[], ctx, args) =>
        ctx.services.brains.revisionsFor(
          keys.map((key) => {
            const { agentId, recordId } = parseAgentScopedKey(key);
            const entry = parsePositionKey(recordId)!;
            return { agentId, memoryId: entry.id, upTo: entry.position };
          }),
          pageSize(args.first, 500, 100),
        ),
      // The revision is part of the key: the same memory read now and as of an earlier time has other revisions.
      resolve: (m) => agentScopedKey(m.agentId, JSON.stringify([m.id, m.revision])),
    }),
  }),
});
addAgentLink(BrainMemoryRef, (m) => m.agentId);
addAgentLink(BrainRevisionRef, (r) => r.agentId);

export const BrainMemoryConnection = connectionType(BrainMemoryRef, 'BrainMemory', {
  totalCount: 'How many live memories the whole list holds under the same agent, query and ownership filter (not only this page); not offered with asOf (BAD_REQUEST)',
});
