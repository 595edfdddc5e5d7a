import { useCallback, useState, type ReactNode } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Col from 'react-bootstrap/Col';
import Row from 'react-bootstrap/Row';
import { useSearchParams } from 'react-router-dom';
import { settingField } from '../../../shared/agentSettings';
import { AGENT_SETTINGS_LABELS } from '../../../shared/constants/agentSettingsLabels';
import type { ApiError } from '../../api/axiosBaseQuery';
import { useListGroupsQuery } from '../../api/groupsApi';
import type { PageProps } from '../../app/lazyPage';
import { PageSpinner } from '../../components/PageSpinner';
import { useUnsavedChangesGuard } from '../../components/useUnsavedChangesGuard';
import { useSettingsSectionQuery, type SectionArgs } from './agentSettingsApi';
import { SettingsFieldsForm } from './SettingsFieldsForm';
import { SettingsHistory } from './SettingsHistory';
import { SettingsOverrides } from '../../components/SettingsOverrides';
import { sectionOfPath } from './settingsPaths';
import { groupIdParam, SettingsScopeBar } from '../../components/SettingsScopeBar';
import { LoadError } from '../../components/LoadError';

const L = AGENT_SETTINGS_LABELS;

export interface SettingsSectionViewProps extends PageProps {
  /** Beside the form, with its values as typed (the screen design's preview). */
  aside?: (values: Record<string, unknown>) => ReactNode;
}

/**
 * A section page of the agent settings (restrictions, screen design): the title, the scope bar
 * (Global or a group, kept in `?groupId=`), the section's form for that scope, the groups that
 * override the section and the scope's history. Leaving with unsaved changes asks first.
 */
export function SettingsSectionView({ title, path, aside }: SettingsSectionViewProps) {
  const found = sectionOfPath(path);
  if (!found) throw new Error(`${path} is not an agent-settings section page`);
  const { section, deviceType } = found;
  const [searchParams, setSearchParams] = useSearchParams();
  const groupId = groupIdParam(searchParams.get('groupId'));
  const args: SectionArgs = groupId === undefined ? { deviceType, section: section.key } : { deviceType, section: section.key, groupId };
  const query = useSettingsSectionQuery(args);
  const groups = useListGroupsQuery();
  const [dirty, setDirty] = useState(false);
  const guard = useUnsavedChangesGuard(dirty);
  const [reloads, setReloads] = useState(0);
  const onDirtyChange = useCallback((d: boolean) => setDirty(d), []);

  const changeScope = (next: number | undefined) => guard.confirmLeave(() => setSearchParams(next === undefined ? {} : { groupId: String(next) }));
  const reload = () => {
    void query.refetch().then(() => setReloads((r) => r + 1));
  };

  // The answer of this scope only: another scope's answer never fills this scope's form.
  const answer = query.currentData;
  const groupList = groups.data?.data;
  const groupName =
    groupId === undefined
      ? undefined
      : (groupList?.find((g) => g.id === groupId)?.name ?? answer?.overrides.find((o) => o.groupId === groupId)?.groupName);
  const error = query.error as ApiError | undefined;

  let content: ReactNode;
  if (!answer && query.isError) {
    content =
      groupId !== undefined && error?.status === 404 ? (
        <Alert variant="warning" className="d-flex flex-wrap align-items-center justify-content-between gap-2">
          <span>{L.scope.groupNotFound}</span>
          <Button variant="outline-dark" size="sm" onClick={() => changeScope(undefined)}>
            {L.scope.backToGlobal}
          </Button>
        </Alert>
      ) : (
        <LoadError message={L.common.loadError} onRetry={() => void query.refetch()} />
      );
  } else if (!answer) {
    content = <PageSpinner />;
  } else {
    content = (
      <>
        <SettingsFieldsForm
          key={`${groupId ?? 'global'}:${reloads}`}
          args={args}
          section={section}
          answer={answer}
          groupName={groupName}
          onDirtyChange={onDirtyChange}
          onReload={reload}
          reloading={query.isFetching}
          aside={aside}
        />
        <Row className="g-3 mt-1">
          <Col lg={6}>
            <Card className="mb-3">
              <Card.Body>
                <h2 className="h6">{L.overrides.title}</h2>
                <SettingsOverrides overrides={answer.overrides} pagePath={path} keyLabel={(k) => settingField(k)?.label ?? k} />
              </Card.Body>
            </Card>
          </Col>
          <Col lg={6}>
            <SettingsHistory history={answer.history} deviceType={deviceType} section={section} isGroup={answer.groupId !== null} />
          </Col>
        </Row>
      </>
    );
  }

  return (
    <section>
      <h1 className="h3 mb-1">{title}</h1>
      <p className="text-body-secondary">{section.description}</p>
      <SettingsScopeBar groupId={groupId} groups={groupList} groupsError={groups.isError && !groups.data} onChange={changeScope} />
      {content}
      {guard.dialog}
    </section>
  );
}
