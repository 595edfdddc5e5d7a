import { useId, type ReactNode } from 'react';
import Form from 'react-bootstrap/Form';
import Pagination from 'react-bootstrap/Pagination';
import { DATA_TABLE_LABELS } from '../../shared/constants/labels';
import { PER_PAGE_OPTIONS } from './useListParams';

export interface ListPagerProps {
  page: number;
  perPage: number;
  total: number;
  onPage: (page: number) => void;
  onPerPage: (perPage: number) => void;
  /** The page sizes offered (default 10/25/50). */
  perPageOptions?: readonly number[];
  /** Replaces the 'Página x de y (n registros)' text (e.g. an estimated total). */
  summary?: ReactNode;
  /** Texts of a list with its own labels (default: the data table's texts). */
  labels?: { perPage: string; pagination: string };
}

/** The page numbers around the current one (first and last always shown). */
function pageNumbers(page: number, pages: number): (number | 'gap')[] {
  // Only the shown numbers are visited: a list of millions of rows has hundreds of thousands of pages.
  const shown = [...new Set([1, ...[-2, -1, 0, 1, 2].map((d) => page + d), pages])].filter((p) => p >= 1 && p <= pages).sort((a, b) => a - b);
  const out: (number | 'gap')[] = [];
  for (const p of shown) {
    const last = out[out.length - 1];
    if (typeof last === 'number' && p > last + 1) out.push('gap');
    out.push(p);
  }
  return out;
}

/** Page numbers and the page size (10/25/50 unless `perPageOptions`) of a list. */
export function ListPager({
  page,
  perPage,
  total,
  onPage,
  onPerPage,
  perPageOptions = PER_PAGE_OPTIONS,
  summary,
  labels = DATA_TABLE_LABELS,
}: ListPagerProps) {
  const selectId = useId();
  const pages = Math.max(1, Math.ceil(total / perPage));
  return (
    <div className="d-flex flex-wrap align-items-center justify-content-between gap-2 mt-3">
      <div className="d-flex flex-wrap align-items-center gap-2">
        <Form.Label htmlFor={selectId} className="mb-0 small">
          {labels.perPage}
        </Form.Label>
        <Form.Select id={selectId} size="sm" style={{ width: 'auto' }} value={perPage} onChange={(e) => onPerPage(Number(e.target.value))}>
          {perPageOptions.map((n) => (
            <option key={n} value={n}>
              {n}
            </option>
          ))}
        </Form.Select>
        <span className="small">{summary ?? DATA_TABLE_LABELS.pageOf(Math.min(page, pages), pages, total)}</span>
      </div>
      {pages > 1 && (
        <nav aria-label={labels.pagination}>
          <Pagination size="sm" className="mb-0">
            {pageNumbers(page, pages).map((p, i) =>
              p === 'gap' ? (
                <Pagination.Ellipsis key={`gap-${i}`} disabled />
              ) : (
                <Pagination.Item key={p} active={p === page} onClick={() => onPage(p)} aria-current={p === page ? 'page' : undefined}>
                  {p}
                </Pagination.Item>
              ),
            )}
          </Pagination>
        </nav>
      )}
    </div>
  );
}
