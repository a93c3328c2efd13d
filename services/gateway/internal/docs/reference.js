// Renders the OpenAPI document named by the page into #reference, without Redoc's telemetry.
import { init } from "{{.Bundle}}";

const root = document.getElementById("reference");
init(root.dataset.document, { disableTelemetry: true }, root);
