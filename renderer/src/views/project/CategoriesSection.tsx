// The project's categories: add, rename in place, delete. Each shows the labels of its default label
// set, the labels every document of the category is reviewed for.
import { useState, type FormEvent } from 'react';
import type { CategoryOut } from '../../api/client.ts';
import { useTaxonomy } from '../../state/taxonomy.ts';
import { ConfirmDelete } from './ConfirmDelete.tsx';
import { FieldError } from './FieldError.tsx';
import { invalid, useSubmit } from './useSubmit.ts';

export function CategoriesSection() {
  const categories = useTaxonomy((s) => s.categories);
  return (
    <section className="card setup-card" aria-labelledby="categories-title">
      <h2 id="categories-title">Categories</h2>
      <p className="muted">A category is a kind of document (invoice, payslip). Each has its own labels.</p>
      {categories.length > 0 && (
        <ul className="setup-list">
          {categories.map((c) => (
            <CategoryRow key={c.id} category={c} />
          ))}
        </ul>
      )}
      <NewCategoryForm />
    </section>
  );
}

function CategoryRow({ category }: { category: CategoryOut }) {
  const { labels, renameCategory, deleteCategory } = useTaxonomy();
  const [editing, setEditing] = useState(false);
  // After a rename (or its cancel) focus goes back to the Rename button, not to the top of the page.
  const [returned, setReturned] = useState(false);
  const labelNames = labels.filter((l) => category.labels.includes(l.id)).map((l) => l.name);

  return (
    <li className="setup-item">
      {editing ? (
        <RenameForm
          category={category}
          onDone={() => {
            setEditing(false);
            setReturned(true);
          }}
          rename={renameCategory}
        />
      ) : (
        <>
          <div className="setup-item-main">
            <span className="item-name">{category.name}</span>
            <span className="muted item-detail">{labelNames.length ? `Labels: ${labelNames.join(', ')}` : 'No labels yet'}</span>
          </div>
          <div className="item-actions">
            <button type="button" autoFocus={returned} aria-label={`Rename category ${category.name}`} onClick={() => setEditing(true)}>
              Rename
            </button>
            <ConfirmDelete
              what={`category ${category.name}`}
              question={`Delete “${category.name}”? Its documents stay, without a category.`}
              onConfirm={() => deleteCategory(category.id)}
            />
          </div>
        </>
      )}
    </li>
  );
}

function RenameForm({ category, rename, onDone }: { category: CategoryOut; rename(id: number, name: string): Promise<void>; onDone(): void }) {
  const [name, setName] = useState(category.name);
  const submit = useSubmit(['name']);
  const id = `category-${category.id}-name`;

  async function save(e: FormEvent) {
    e.preventDefault();
    if (await submit.run(() => rename(category.id, name))) onDone();
  }

  return (
    <form className="inline-form" onSubmit={save} onKeyDown={(e) => e.key === 'Escape' && onDone()}>
      <label htmlFor={id} className="visually-hidden">
        New name of category {category.name}
      </label>
      <input id={id} autoFocus value={name} onChange={(e) => setName(e.target.value)} {...invalid(id, submit.fieldError('name'))} />
      <button type="submit" className="primary" disabled={submit.busy}>
        Save
      </button>
      <button type="button" onClick={onDone}>
        Cancel
      </button>
      <FieldError id={id} error={submit.fieldError('name') ?? submit.formError} />
    </form>
  );
}

function NewCategoryForm() {
  const createCategory = useTaxonomy((s) => s.createCategory);
  const [name, setName] = useState('');
  const submit = useSubmit(['name']);

  async function add(e: FormEvent) {
    e.preventDefault();
    if (await submit.run(() => createCategory(name))) setName('');
  }

  return (
    <form className="inline-form add-form" onSubmit={add}>
      <label htmlFor="new-category-name">New category</label>
      <input id="new-category-name" placeholder="e.g. Invoice" value={name} onChange={(e) => setName(e.target.value)} {...invalid('new-category-name', submit.fieldError('name'))} />
      <button type="submit" disabled={submit.busy}>
        Add category
      </button>
      <FieldError id="new-category-name" error={submit.fieldError('name') ?? submit.formError} />
    </form>
  );
}
