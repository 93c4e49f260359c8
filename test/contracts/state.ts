import { describe, expect, it } from 'vitest';
import type { Label } from '../../src/ifc/label.js';
import type { DefinitionPin, PendingApproval, StateStores } from '../../src/state/ports.js';

const PII: Label = { integrity: 'trusted', confidentiality: 'pii' };
const UNTRUSTED: Label = { integrity: 'untrusted', confidentiality: 'public' };
const BOTTOM: Label = { integrity: 'trusted', confidentiality: 'public' };

export interface StateUnderTest {
  state: StateStores;
  /** For stores that persist: close and open the same store again, as a restart does. */
  reopen?: () => Promise<StateStores>;
  /**
   * For stores that can fail: from now on the store's engine itself refuses every write (a trigger in SQLite,
   * the user's rights in Redis), while reads still work.
   */
  breakWrites?: () => Promise<void>;
}

/** An approval request as a gateway would add it (the redis tests across replicas use it too). */
export const pending = (id: string, session = 's1'): PendingApproval => ({
  id,
  agent: 'alice',
  session,
  tool: 'files__write_file',
  arguments: { path: '/tmp/x', nested: { a: [1, 2] } },
  label: 'trusted/public',
  step: 'tool-rule',
  reason: 'needs a human',
  requestedAt: new Date().toISOString(),
  expiresAt: new Date(Date.now() + 60_000).toISOString(),
  definitionHash: 'd'.repeat(64),
  argumentsHash: 'a'.repeat(64),
});

/**
 * The state ports' contract: what every implementation (memory, SQLite, Redis) must do alike.
 * Each test makes a fresh store.
 */
export function stateContract(name: string, make: () => Promise<StateUnderTest>): void {
  describe(`state contract: ${name}`, () => {
    it('labels: a session starts at its identity mark, rises by join, and never lowers on its own', async () => {
      const { state } = await make();
      const s1 = { id: 's1', agent: 'alice', stateless: false };
      expect(await state.labels.of(s1)).toEqual(BOTTOM);
      expect(await state.labels.raise(s1, PII)).toEqual({ before: BOTTOM, after: PII });
      const { after } = await state.labels.raise(s1, UNTRUSTED);
      expect(after).toEqual({ integrity: 'untrusted', confidentiality: 'pii' });
      expect(await state.labels.raise(s1, BOTTOM)).toEqual({ before: after, after });
      // A new session of the same agent starts at the agent's mark; a stateless request carries the mark.
      expect(await state.labels.of({ id: 's2', agent: 'alice', stateless: false })).toEqual(after);
      expect(await state.labels.of({ id: 'x', agent: 'alice', stateless: true })).toEqual(after);
      expect(await state.labels.of({ id: 's3', agent: 'bob', stateless: false })).toEqual(BOTTOM);
      await state.close();
    });

    it('labels: an agent is one actor — a session opened earlier is raised by what another session read', async () => {
      const { state } = await make();
      const early = { id: 'early', agent: 'alice', stateless: false };
      const reader = { id: 'reader', agent: 'alice', stateless: false };
      expect(await state.labels.of(early)).toEqual(BOTTOM);
      await state.labels.raise(reader, PII);
      expect(await state.labels.of(early)).toEqual(PII);
      expect(await state.labels.raise(early, UNTRUSTED)).toEqual({ before: PII, after: { integrity: 'untrusted', confidentiality: 'pii' } });
      expect(await state.labels.of({ id: 'bob', agent: 'bob', stateless: false })).toEqual(BOTTOM); // another agent is not
      await state.close();
    });

    it('labels: isolated sessions (a role option) do not raise each other; forget and reset', async () => {
      const { state } = await make();
      const a = { id: 'a', agent: 'alice', stateless: false, isolated: true };
      const b = { id: 'b', agent: 'alice', stateless: false, isolated: true };
      expect(await state.labels.of(a)).toEqual(BOTTOM);
      expect(await state.labels.of(b)).toEqual(BOTTOM);
      await state.labels.raise(a, PII);
      expect(await state.labels.of(b)).toEqual(BOTTOM);
      expect(new Map(await state.labels.identities()).get('alice')).toEqual(PII);
      await state.labels.reset({ sessionId: 'a' }, []);
      expect(await state.labels.of(a)).toEqual(BOTTOM);
      expect(new Map(await state.labels.identities()).get('alice')).toEqual(PII); // the mark stays
      await state.labels.raise(b, UNTRUSTED);
      await state.labels.reset({ agent: 'alice' }, ['b']);
      expect(await state.labels.of(b)).toEqual(BOTTOM);
      expect(new Map(await state.labels.identities()).has('alice')).toBe(false);
      await state.labels.raise(a, PII);
      await state.labels.forget('a');
      // A forgotten session that comes back starts over from the mark (which is pii now).
      expect(await state.labels.of(a)).toEqual(PII);
      await state.close();
    });

    it('labels: what comes out is a copy', async () => {
      const { state } = await make();
      await state.labels.raise({ id: 'a', agent: 'alice', stateless: false }, PII);
      const [[, label]] = await state.labels.identities();
      label.confidentiality = 'public';
      expect(new Map(await state.labels.identities()).get('alice')).toEqual(PII);
      await state.close();
    });

    it('rate limits: every bucket is checked before any is taken', async () => {
      const { state } = await make();
      const overall = { key: 'agent:alice', bucket: { perSecond: 0.001, burst: 3 } };
      const tool = { key: 'agent:alice:tool:files__*', bucket: { perSecond: 0.001, burst: 1 } };
      expect(await state.limits.take([overall, tool])).toEqual({ ok: true });
      const refused = await state.limits.take([overall, tool]);
      expect(refused).toMatchObject({ ok: false, index: 1 });
      expect((refused as { retryAfterMs: number }).retryAfterMs).toBeGreaterThan(0);
      // The refused call took nothing from the overall bucket: two more fit.
      expect(await state.limits.take([overall])).toEqual({ ok: true });
      expect(await state.limits.take([overall])).toEqual({ ok: true });
      expect(await state.limits.take([overall])).toMatchObject({ ok: false, index: 0 });
      await state.close();
    });

    it('rate limits: buckets refill with time', async () => {
      const { state } = await make();
      const b = { key: 'agent:fast', bucket: { perSecond: 20, burst: 1 } };
      expect(await state.limits.take([b])).toEqual({ ok: true });
      expect((await state.limits.take([b])).ok).toBe(false);
      await new Promise((r) => setTimeout(r, 120));
      expect(await state.limits.take([b])).toEqual({ ok: true });
      await state.close();
    });

    it('switches: off by default, set, and watched', async () => {
      const { state } = await make();
      expect(await state.switches.get('paused')).toBe(false);
      const seen: [string, boolean][] = [];
      const stop = state.switches.watch((n, on) => seen.push([n, on]));
      await state.switches.set('paused', true);
      expect(await state.switches.get('paused')).toBe(true);
      stop();
      await state.switches.set('paused', false);
      expect(await state.switches.get('paused')).toBe(false);
      expect(seen).toEqual([['paused', true]]);
      await state.close();
    });

    it('approvals: settled exactly once, and the waiter wakes', async () => {
      const { state } = await make();
      await state.approvals.add(pending('p1'));
      expect((await state.approvals.list()).map((p) => p.id)).toEqual(['p1']);
      const woke = state.approvals.wait('p1');
      const [first, second] = await Promise.all([
        state.approvals.settle('p1', { granted: true, outcome: 'granted', by: 'operator' }),
        state.approvals.settle('p1', { granted: false, outcome: 'denied', by: 'someone else' }),
      ]);
      expect(first?.id).toBe('p1');
      expect(first?.arguments).toEqual({ path: '/tmp/x', nested: { a: [1, 2] } });
      expect(second).toBeUndefined();
      expect(await woke).toEqual({ granted: true, outcome: 'granted', by: 'operator' });
      expect(await state.approvals.list()).toEqual([]);
      // Asking after the fact still gets the verdict.
      expect(await state.approvals.wait('p1')).toMatchObject({ outcome: 'granted' });
      expect(await state.approvals.settle('nope', { granted: true, outcome: 'granted', by: 'x' })).toBeUndefined();
      await state.close();
    });

    it('approvals: grants by agent and tool, with expiry; a session ending takes its grants and reports its requests', async () => {
      const { state } = await make();
      await state.approvals.addGrant({ agent: 'alice', tool: 't', scope: 'always', definitionHash: 'd' });
      await state.approvals.addGrant({ agent: 'alice', tool: 't', scope: 'session', session: 's1', definitionHash: 'd' });
      await state.approvals.addGrant({ agent: 'alice', tool: 't', scope: 'always', definitionHash: 'd', expiresAt: Date.now() - 1 });
      await state.approvals.addGrant({ agent: 'bob', tool: 't', scope: 'always', definitionHash: 'd' });
      expect((await state.approvals.grants('alice', 't')).map((g) => g.scope).sort()).toEqual(['always', 'session']);
      await state.approvals.add(pending('p2', 's1'));
      await state.approvals.add(pending('p3', 's2'));
      expect((await state.approvals.endSession('s1')).map((p) => p.id)).toEqual(['p2']);
      expect((await state.approvals.grants('alice', 't')).map((g) => g.scope)).toEqual(['always']);
      await state.close();
    });

    it('records: put, get, expiry, touch, delete, copies', async () => {
      const { state } = await make();
      const record = { createdAt: 'now' };
      await state.consoleLogins.put('k', record, 60_000);
      record.createdAt = 'changed';
      expect(await state.consoleLogins.get('k')).toEqual({ createdAt: 'now' });
      await state.consoleLogins.put('short', { createdAt: 'x' }, 30);
      await new Promise((r) => setTimeout(r, 60));
      expect(await state.consoleLogins.get('short')).toBeUndefined();
      // touch pushes out the expiry and keeps the value; a record already gone stays gone.
      await state.consoleLogins.put('kept', { createdAt: 'first' }, 80);
      await state.consoleLogins.touch('kept', 60_000);
      await state.consoleLogins.touch('short', 60_000);
      await new Promise((r) => setTimeout(r, 120));
      expect(await state.consoleLogins.get('kept')).toEqual({ createdAt: 'first' });
      expect(await state.consoleLogins.get('short')).toBeUndefined();
      await state.consoleLogins.delete('k');
      expect(await state.consoleLogins.get('k')).toBeUndefined();
      expect(await state.sessions.get('__proto__')).toBeUndefined();
      await state.close();
    });

    it('survives a restart where the store persists: labels, pause, grants, sessions; waiting requests expire', async () => {
      const { state, reopen } = await make();
      if (!reopen) return void (await state.close()); // memory: nothing to survive, by design
      await state.labels.raise({ id: 's1', agent: 'alice', stateless: false }, PII);
      await state.switches.set('paused', true);
      await state.approvals.addGrant({ agent: 'alice', tool: 't', scope: 'always', definitionHash: 'd' });
      await state.approvals.add(pending('p9'));
      await state.sessions.put('sid', { id: 'sid', owner: 'o', agent: 'alice', via: 'token', transport: 'http', protocolVersion: '2025-06-18', clientCapabilities: {} }, 60_000);
      await state.close();
      const again = await reopen();
      expect(await again.labels.of({ id: 'new', agent: 'alice', stateless: false })).toEqual(PII);
      expect(await again.switches.get('paused')).toBe(true);
      expect(await again.approvals.grants('alice', 't')).toHaveLength(1);
      expect(await again.approvals.list()).toEqual([]);
      expect(await again.approvals.wait('p9')).toMatchObject({ granted: false, outcome: 'expired' });
      expect((await again.sessions.get('sid'))?.agent).toBe('alice');
      await again.close();
    });

    it('fails closed: a write the store cannot make is refused, and nothing acts as if it were made', async () => {
      const { state, breakWrites } = await make();
      if (!breakWrites) return void (await state.close()); // memory: nothing can refuse a write
      const s1 = { id: 's1', agent: 'alice', stateless: false };
      expect(await state.labels.of(s1)).toEqual(BOTTOM);
      const told: boolean[] = [];
      state.switches.watch((_name, on) => told.push(on));
      await breakWrites();
      await expect(state.switches.set('paused', true)).rejects.toThrow();
      await expect(state.labels.raise(s1, PII)).rejects.toThrow();
      await expect(state.approvals.add(pending('p1'))).rejects.toThrow();
      await expect(state.approvals.addGrant({ agent: 'alice', tool: 't', scope: 'always', definitionHash: 'd' })).rejects.toThrow();
      await expect(state.consoleLogins.put('k', { createdAt: 'now' }, 60_000)).rejects.toThrow();
      // Not paused (and nobody told it was), the label did not rise, nothing is waiting, granted or stored.
      expect(told).toEqual([]);
      expect(await state.switches.get('paused')).toBe(false);
      expect(await state.labels.of(s1)).toEqual(BOTTOM);
      expect(await state.approvals.list()).toEqual([]);
      expect(await state.approvals.grants('alice', 't')).toEqual([]);
      expect(await state.consoleLogins.get('k')).toBeUndefined();
      await state.close();
    });

    it('pins: put, get, list by server, replace by server/kind/name, copies, and a restart keeps them', async () => {
      const { state, reopen } = await make();
      const pin = (server: string, name: string, hash: string, status: DefinitionPin['status'] = 'trusted'): DefinitionPin => ({
        server,
        kind: 'tool',
        name,
        hash,
        definition: { name, description: `v ${hash}`, inputSchema: { type: 'object', properties: { a: { type: 'string' } } } },
        trustedHash: status === 'trusted' ? hash : undefined,
        status,
        findings: status === 'quarantined' ? [{ rule: 'secrecy', severity: 'high', where: 'description', evidence: 'do not tell the user' }] : [],
        firstSeen: '2026-12-01T00:00:00.000Z',
        changedAt: '2026-12-01T00:00:00.000Z',
      });
      expect(await state.pins.list()).toEqual([]);
      await state.pins.put([pin('fs', 'read', 'h1'), pin('fs', 'write', 'h2'), pin('mail', 'send', 'h3')]);
      // A prompt of the same name is another pin.
      await state.pins.put([{ ...pin('fs', 'read', 'h9'), kind: 'prompt' }]);
      expect((await state.pins.list('fs')).map((p) => `${p.kind}:${p.name}`).sort()).toEqual(['prompt:read', 'tool:read', 'tool:write']);
      expect(await state.pins.list()).toHaveLength(4);
      expect(await state.pins.get('fs', 'tool', 'read')).toEqual(pin('fs', 'read', 'h1'));
      expect(await state.pins.get('fs', 'tool', 'nope')).toBeUndefined();
      // A changed definition replaces its pin.
      await state.pins.put([pin('fs', 'write', 'h4', 'quarantined')]);
      expect(await state.pins.get('fs', 'tool', 'write')).toMatchObject({ hash: 'h4', status: 'quarantined', findings: [{ rule: 'secrecy' }] });
      // What comes back is a copy: changing it changes nothing stored.
      const got = (await state.pins.get('fs', 'tool', 'read'))!;
      got.status = 'rejected';
      expect((await state.pins.get('fs', 'tool', 'read'))!.status).toBe('trusted');
      // Names are data: a name like __proto__ is a pin like any other.
      await state.pins.put([pin('fs', '__proto__', 'h5')]);
      expect((await state.pins.get('fs', 'tool', '__proto__'))!.hash).toBe('h5');
      await state.close();
      if (reopen) {
        const again = await reopen();
        expect((await again.pins.get('fs', 'tool', 'write'))!.status).toBe('quarantined');
        expect(await again.pins.list()).toHaveLength(5);
        await again.close();
      }
    });
  });
}
