/** The sidebar's place while storage opens: the threads are not read yet, so there is nothing to pick. */
export function SidebarPlaceholder() {
  return (
    <nav className="threads" aria-label="Threads" aria-busy="true">
      <div className="threads-bar">
        <button type="button" className="new-thread" disabled>
          New thread
        </button>
      </div>
    </nav>
  );
}
