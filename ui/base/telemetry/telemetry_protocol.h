// The protocol's telemetry headers that moe_ui uses (events and the tolerant reader), in one place.
#pragma once

#include "protocol/telemetry_events.h"
#include "protocol/telemetry_reader.h"
