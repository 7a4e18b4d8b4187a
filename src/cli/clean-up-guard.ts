// Clean-up after Ctrl-C (deleting the draft a run made) must not be cut short unnoticed by the
// next Ctrl-C. While one runs, the second Ctrl-C says what is being cleaned up and lets it finish;
// a third stops there and says exactly what remains and how to remove it.

export interface CleanUpTask {
  /** What is being done, e.g. "deleting the draft release 12". */
  doing: string;
  /** What remains if it is stopped, with the command that removes it. */
  leftover: string;
}

export class CleanUpGuard {
  private readonly tasks = new Set<CleanUpTask>();

  async run<T>(task: CleanUpTask, work: () => Promise<T>): Promise<T> {
    this.tasks.add(task);
    try {
      return await work();
    } finally {
      this.tasks.delete(task);
    }
  }

  running(): CleanUpTask[] {
    return [...this.tasks];
  }
}
