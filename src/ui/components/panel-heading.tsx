/** A panel's heading row: its title and, when the panel can be closed, a Close button at the end of the row. */
export function PanelHeading({
  id,
  title,
  onClose,
}: {
  id: string;
  title: string;
  onClose?: (() => void) | undefined;
}) {
  return (
    <div className="panel-heading">
      <h2 id={id}>{title}</h2>
      {onClose && (
        <button type="button" className="secondary small" onClick={onClose}>
          Close
        </button>
      )}
    </div>
  );
}
