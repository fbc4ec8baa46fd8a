/**
 * A queue that runs jobs one after another, each once the one before has settled (a failure does not stop the
 * queue; the job's own promise still rejects for its caller). Drafts use it so that a thread's stored record is read
 * before a write queued after the read can replace it.
 */
export function inOrder(): <T>(job: () => Promise<T>) => Promise<T> {
  let queue: Promise<unknown> = Promise.resolve();
  return (job) => {
    const done = queue.then(job);
    queue = done.catch(() => undefined);
    return done;
  };
}
