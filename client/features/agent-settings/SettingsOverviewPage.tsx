import type { ReactNode } from 'react';
import Card from 'react-bootstrap/Card';
import Col from 'react-bootstrap/Col';
import Row from 'react-bootstrap/Row';
import { Link } from 'react-router-dom';
import { fieldsOf, isActive, sectionsOf, type SettingField, type SettingsSection, type SettingValue } from '../../../shared/agentSettings';
import { AGENT_SETTINGS_LABELS } from '../../../shared/constants/agentSettingsLabels';
import { AGENT_SETTINGS_OVERVIEW_LABELS } from '../../../shared/constants/agentSettingsOverviewLabels';
import type { DeviceTypeCode } from '../../../shared/constants/domain';
import { PATHS } from '../../../shared/constants/routes';
import type { SettingsOverview } from '../../../shared/contracts/agentSettings';
import { SPEC_TEXT } from '../../../shared/messages';
import type { PageProps } from '../../app/lazyPage';
import { useCurrentUser } from '../../auth/CurrentUserContext';
import { formatDateTime } from '../../components/formatDate';
import { LoadError } from '../../components/LoadError';
import { PageSpinner } from '../../components/PageSpinner';
import { useSettingsOverviewQuery } from './agentSettingsApi';
import { formatSettingValue } from './settingsForm';
import { SettingsOverrides } from '../../components/SettingsOverrides';
import { deviceTypeOfOverview, LOCK_APP_PATHS } from './settingsPaths';

const L = AGENT_SETTINGS_OVERVIEW_LABELS;
const SUMMARY_MAX = 120;
const HEX = /^#[0-9a-fA-F]{6}$/;

const count = (n: number) => n.toLocaleString('es-MX');

/** A value as the overview shows it: words, a long text cut short, a colour with its swatch. */
function SummaryValue({ field, value }: { field: SettingField; value: SettingValue | undefined }) {
  const shown = formatSettingValue(field, value);
  if (field.kind === 'color' && typeof value === 'string' && HEX.test(value))
    return (
      <>
        <span
          className="d-inline-block border rounded-1 me-1 align-text-bottom"
          style={{ width: '1em', height: '1em', backgroundColor: value }}
          aria-hidden="true"
        />
        <span className="font-monospace">{shown}</span>
      </>
    );
  return <>{shown.length > SUMMARY_MAX ? `${shown.slice(0, SUMMARY_MAX - 1).trimEnd()}…` : shown}</>;
}

function Facts({ children }: { children: ReactNode }) {
  return <dl className="row small mb-2">{children}</dl>;
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <>
      <dt className="col-7 col-sm-6 fw-normal text-body-secondary">{label}</dt>
      <dd className="col-5 col-sm-6 text-break">{children}</dd>
    </>
  );
}

/** The card's link to its page, when the profile grants the page. */
function OpenLink({ path, title }: { path: string | undefined; title: string }) {
  const { allowed } = useCurrentUser();
  if (!path || !allowed.has(path)) return null;
  return (
    <Card.Footer className="bg-body">
      <Link to={path} className="btn btn-outline-primary btn-sm" aria-label={L.openOf(title)}>
        {L.open}
      </Link>
    </Card.Footer>
  );
}

/** A card of the overview: its title and description, what it says, and the link to its page. */
function OverviewCard({
  testId,
  title,
  description,
  path,
  children,
}: {
  testId: string;
  title: string;
  description: string;
  /** The card's page (the link shows when the profile grants it). */
  path: string | undefined;
  children: ReactNode;
}) {
  return (
    <Card className="h-100" data-testid={testId}>
      <Card.Body>
        <h2 className="h5">{title}</h2>
        <p className="small text-body-secondary">{description}</p>
        {children}
      </Card.Body>
      <OpenLink path={path} title={title} />
    </Card>
  );
}

/** One section: its global values, its last change and the groups that override it. */
function SectionCard({
  deviceType,
  section,
  data,
}: {
  deviceType: DeviceTypeCode;
  section: SettingsSection;
  data: SettingsOverview['sections'][number] | undefined;
}) {
  const { allowed } = useCurrentUser();
  const path = section.paths[deviceType];
  const values = data?.values ?? {};
  const fields = fieldsOf(deviceType, section.key).filter((f) => isActive(f, values));
  return (
    <OverviewCard testId={`overview-${section.key}`} title={section.title} description={section.description} path={path}>
      <Facts>
        {fields.map((f) => (
          <Fact key={f.key} label={f.label}>
            <SummaryValue field={f} value={values[f.key]} />
          </Fact>
        ))}
      </Facts>
      <p className="small mb-2">
        <span className="text-body-secondary">{L.lastChange}: </span>
        {data?.updatedAt ? L.lastChangeBy(formatDateTime(data.updatedAt), data.updatedBy) : L.neverChanged}
      </p>
      <h3 className="h6 mb-1">{L.overrides}</h3>
      <SettingsOverrides overrides={data?.overrides ?? []} pagePath={path && allowed.has(path) ? path : undefined} />
    </OverviewCard>
  );
}

/** The lock app of the type: its current version and how many devices run another one. */
function LockAppCard({ deviceType, lockApp }: { deviceType: DeviceTypeCode; lockApp: SettingsOverview['lockApp'] }) {
  const current = lockApp.current;
  return (
    <OverviewCard testId="overview-lock-app" title={L.lockApp} description={L.lockAppDescription} path={LOCK_APP_PATHS[deviceType]}>
      <Facts>
        <Fact label={L.currentVersion}>
          <span data-testid="overview-current-version">{current ? `${current.versionName} (${current.versionApp})` : SPEC_TEXT.notAvailable}</span>
        </Fact>
        <Fact label={L.versions}>{count(lockApp.versions)}</Fact>
        <Fact label={L.devices}>{count(lockApp.devices)}</Fact>
        <Fact label={L.outdated}>{L.outdatedCount(lockApp.outdated)}</Fact>
      </Facts>
    </OverviewCard>
  );
}

function BusinessAppsCard({ total }: { total: number }) {
  return (
    <OverviewCard testId="overview-business-apps" title={L.businessApps} description={L.businessAppsDescription} path={PATHS.businessApp}>
      <Facts>
        <Fact label={L.businessAppsTotal}>{count(total)}</Fact>
      </Facts>
    </OverviewCard>
  );
}

/**
 * The overview of a device type's agent settings (/agent-settings, /agent-settings-tv): a card
 * per section with its global values, last change and the groups that override it; the lock
 * app's current version and the devices running another; for smartphones, the business apps.
 * Each card links to its page when the profile grants it.
 */
export default function SettingsOverviewPage({ title, path }: PageProps) {
  const deviceType = deviceTypeOfOverview(path);
  if (deviceType === undefined) throw new Error(`${path} is not an agent-settings overview page`);
  const query = useSettingsOverviewQuery(deviceType);
  const data = query.data;
  let content: ReactNode;
  if (!data && query.isError) content = <LoadError message={AGENT_SETTINGS_LABELS.common.loadError} onRetry={() => void query.refetch()} />;
  else if (!data) content = <PageSpinner />;
  else
    content = (
      <Row xs={1} md={2} xxl={3} className="g-3">
        {sectionsOf(deviceType).map((s) => (
          <Col key={s.key}>
            <SectionCard deviceType={deviceType} section={s} data={data.sections.find((d) => d.section === s.key)} />
          </Col>
        ))}
        <Col>
          <LockAppCard deviceType={deviceType} lockApp={data.lockApp} />
        </Col>
        {data.businessApps && (
          <Col>
            <BusinessAppsCard total={data.businessApps.total} />
          </Col>
        )}
      </Row>
    );
  return (
    <section>
      <h1 className="h3 mb-1">{title}</h1>
      <p className="text-body-secondary">{L.intro}</p>
      {content}
    </section>
  );
}
