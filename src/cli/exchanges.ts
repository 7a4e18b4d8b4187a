// What a command has asked the service so far, in words: kept so that when --timeout passes the
// one line can say what was in flight and what may already exist. No imports: every command's
// context carries one, and session.ts fills it from the client's onExchange hook.

export interface Exchange {
  /** In words, e.g. "create a release (draft)". */
  what: string;
  /** Changes something on the service (a check like "check a UPC" does not). */
  changes: boolean;
  state: 'in flight' | 'answered' | 'failed';
}

export class Exchanges {
  private readonly list: Exchange[] = [];

  /** Records a request that starts; call the returned function when it ends. */
  start(what: string, changes: boolean): (answered: boolean) => void {
    const e: Exchange = { what, changes, state: 'in flight' };
    this.list.push(e);
    return (answered) => {
      e.state = answered ? 'answered' : 'failed';
    };
  }

  inFlight(): Exchange[] {
    return this.list.filter((e) => e.state === 'in flight');
  }

  /** Changes the service answered (done) or that were sent and not answered (maybe done). */
  changesSent(): Exchange[] {
    return this.list.filter((e) => e.changes);
  }

  /** Anything was sent at all. */
  any(): boolean {
    return this.list.length > 0;
  }
}
