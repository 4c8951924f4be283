/** Who waits for news of which job: one subscription to the backend's change notifications, handed on per job. */

/** Wakes the watchers of a job when its status or progress changes. */
export class JobWatch {
  private readonly watchers = new Map<string, Set<() => void>>();

  /** Subscribes, once, through `subscribe` (the backend's `onChange`). */
  constructor(subscribe: (listener: (id: string) => void) => void) {
    subscribe((id) => {
      for (const wake of this.watchers.get(id) ?? []) wake();
    });
  }

  /** Calls `wake` after each change of job `id`, until the returned function is called. */
  watch(id: string, wake: () => void): () => void {
    let set = this.watchers.get(id);
    if (!set) this.watchers.set(id, (set = new Set()));
    set.add(wake);
    return () => {
      set.delete(wake);
      if (set.size === 0 && this.watchers.get(id) === set) this.watchers.delete(id);
    };
  }
}
