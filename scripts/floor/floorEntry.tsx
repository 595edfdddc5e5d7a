import 'bootstrap/dist/css/bootstrap.min.css';
import { hydrateRoot } from 'react-dom/client';
import { FloorLogin } from './floorLogin';

hydrateRoot(document.getElementById('root')!, <FloorLogin />);
