import { useId } from 'react';
import Form from 'react-bootstrap/Form';
import Pagination from 'react-bootstrap/Pagination';
import { ADMIN_LABELS as L } from '../../shared/constants/adminLabels';
import { PER_PAGE_OPTIONS } from './useUrlQuery';

export interface ListPagerProps {
  page: number;
  perPage: number;
  total: number;
  onPage: (page: number) => void;
  onPerPage: (perPage: number) => void;
}

/** The page numbers around the current one (first and last always shown). */
function pageNumbers(page: number, pages: number): (number | 'gap')[] {
  const out: (number | 'gap')[] = [];
  for (let p = 1; p <= pages; p++) {
    if (p === 1 || p === pages || Math.abs(p - page) <= 2) out.push(p);
    else if (out[out.length - 1] !== 'gap') out.push('gap');
  }
  return out;
}

/** Page numbers and the page size (10/25/50) of a list. */
export function ListPager({ page, perPage, total, onPage, onPerPage }: ListPagerProps) {
  const selectId = useId();
  const pages = Math.max(1, Math.ceil(total / perPage));
  return (
    <div className="d-flex flex-wrap align-items-center justify-content-between gap-2 mt-3">
      <div className="d-flex align-items-center gap-2">
        <Form.Label htmlFor={selectId} className="mb-0 small">
          {L.perPage}
        </Form.Label>
        <Form.Select id={selectId} size="sm" style={{ width: 'auto' }} value={perPage} onChange={(e) => onPerPage(Number(e.target.value))}>
          {PER_PAGE_OPTIONS.map((n) => (
            <option key={n} value={n}>
              {n}
            </option>
          ))}
        </Form.Select>
        <span className="small">{L.pageOf(Math.min(page, pages), pages, total)}</span>
      </div>
      {pages > 1 && (
        <nav aria-label={L.pagination}>
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
