// The user's projects as a table, newest first, with a button for the next page.
import { useProjects } from '../../state/projects.ts';

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

export function ProjectList() {
  const { items, count, loading, error, reload, loadMore } = useProjects();

  if (error) {
    return (
      <div className="card" role="alert">
        <p className="error">{error}</p>
        <button type="button" onClick={() => void reload()}>
          Try again
        </button>
      </div>
    );
  }
  if (!items.length) {
    return <p className="muted empty">{loading ? 'Loading projects…' : 'No projects yet. Create the first one above.'}</p>;
  }
  return (
    <section aria-labelledby="project-list-title">
      <h2 id="project-list-title" className="count">
        {count === 1 ? '1 project' : `${count} projects`}
      </h2>
      <table className="projects">
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col" className="num">
              ID
            </th>
            <th scope="col">Created</th>
          </tr>
        </thead>
        <tbody>
          {items.map((p) => (
            <tr key={p.id}>
              <td>
                <a href={`#/projects/${p.id}`}>{p.name}</a>
              </td>
              <td className="num">{p.id}</td>
              <td>
                <time dateTime={p.created_at}>{dateFormat.format(new Date(p.created_at))}</time>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {items.length < count && (
        <button type="button" className="more" disabled={loading} onClick={() => void loadMore()}>
          {loading ? 'Loading…' : `Show more (${count - items.length} left)`}
        </button>
      )}
    </section>
  );
}
