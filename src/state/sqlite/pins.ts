import type Database from 'better-sqlite3';
import { pinId, type DefinitionPin, type PinStore } from '../ports.js';

/** Pins as JSON rows, one per server, kind and name; a discovery's pins are written in one transaction. */
export class SqlitePins implements PinStore {
  private readonly all: Database.Statement<[], string>;
  private readonly ofServer: Database.Statement<[string], string>;
  private readonly one: Database.Statement<[string], string>;
  private readonly write: (pins: readonly DefinitionPin[]) => void;

  constructor(db: Database.Database) {
    this.all = db.prepare<[], string>('SELECT body FROM pins').pluck();
    this.ofServer = db.prepare<[string], string>('SELECT body FROM pins WHERE server = ?').pluck();
    this.one = db.prepare<[string], string>('SELECT body FROM pins WHERE id = ?').pluck();
    const upsert = db.prepare('INSERT INTO pins (id, server, body) VALUES (?, ?, ?) ON CONFLICT(id) DO UPDATE SET server = excluded.server, body = excluded.body');
    this.write = db.transaction((pins: readonly DefinitionPin[]) => {
      for (const p of pins) upsert.run(pinId(p), p.server, JSON.stringify(p));
    });
  }

  async list(server?: string): Promise<DefinitionPin[]> {
    const rows = server === undefined ? this.all.all() : this.ofServer.all(server);
    return rows.map((r) => JSON.parse(r) as DefinitionPin);
  }

  async get(server: string, kind: DefinitionPin['kind'], name: string): Promise<DefinitionPin | undefined> {
    const row = this.one.get(pinId({ server, kind, name }));
    return row === undefined ? undefined : (JSON.parse(row) as DefinitionPin);
  }

  async put(pins: readonly DefinitionPin[]): Promise<void> {
    this.write(pins);
  }
}
