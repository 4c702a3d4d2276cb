#include "apps/restart.hpp"

#include <cstdio>
#include <filesystem>

#include "apps/physics_options.hpp"
#include "apps/run_option_table.hpp"
#include "io/compression.hpp"
#include "io/run_settings.hpp"
#include "io/snapshots.hpp"
#include "core/errors.hpp"
#include "core/heat_source.hpp"
#include "core/number_text.hpp"

namespace heat {

RunOptions with_restart_implied(const RunOptions& given) {
  RunOptions o = given;
  if (!o.restart.empty()) {
    if (o.was_given("init-file") && o.init_file != o.restart)
      throw InputError("--restart " + o.restart + " and --init-file " + o.init_file + " name different files: give one");
    if (o.was_given("init") && o.init != "file")
      throw InputError("--restart " + o.restart + " starts from that file, but --init is " + o.init + ": drop --init");
    o.init_file = o.restart;
    o.given.insert("init-file");
    if (!o.was_given("output")) {
      const std::string directory = std::filesystem::path(o.restart).parent_path().string();
      o.output = directory.empty() ? "." : directory;
    }
  }
  if (o.was_given("init-file") && !o.was_given("init")) o.init = "file";
  return o;
}

namespace {
// Each --source as the snapshots record it (uniform:5.0 is uniform:5).
std::vector<std::string> normalized_sources(const std::vector<std::string>& given) {
  std::vector<std::string> texts;
  for (const std::string& text : given) texts.push_back(source_spec_text(parse_source_spec(text)));
  return texts;
}

std::string lossy_start_note(const std::string& path, const StoredRunSettings& stored) {
  if (!stored.compress) return {};
  const Compression codec = parse_compression(*stored.compress);
  if (codec.lossless()) return {};
  return "from " + path + "'s values, stored by ZFP within " + number_text(codec.bound) +
         " of the run's: what follows is within about that of the run it continues, not bitwise the same";
}
}  // namespace

namespace {
// The end time unless --steps or --t-end says how far to go, the probes and the monitors' period
// unless given: a restart of a run to an end time ends there, with the monitors it had.
void take_stored_end_time_and_monitors(RunOptions& o, const StoredRunSettings& stored) {
  if (stored.t_end && !o.was_given("t-end") && !o.was_given("steps")) {
    o.t_end = *stored.t_end;
    o.given.insert("t-end");
    if (stored.end_step) {
      o.stored_end_step = *stored.end_step;
      o.stored_last_step_dt = stored.last_step_dt;
    }
  }
  if (stored.probes && !o.was_given("probe")) {
    o.probe = *stored.probes;
    o.given.insert("probe");
  }
  o.start_had_monitors = stored.monitor_every.value_or(0) > 0;
  if (stored.monitor_every && !o.was_given("monitor-every")) {
    o.monitor_every = *stored.monitor_every;
    o.given.insert("monitor-every");
  }
}
}  // namespace

TakenSettings take_stored_settings(RunOptions& o) {
  const StoredRunSettings stored = read_stored_run_settings(o.init_file);
  // Without them the run would start again at step 0, over the snapshots of the run it continues.
  for (const auto& [name, recorded] : {std::pair{"step", stored.step.has_value()}, {"time", stored.time.has_value()}})
    if (stored.recorded && !recorded)
      throw InputError(o.init_file + ": /heatrk4 has no " + name + " attribute (every heatrk4 snapshot records its " +
                       name + "): this file cannot be restarted from");
  std::vector<std::string> overrides;
  const auto note = [&](const std::string& option, const std::string& stored_value) {
    overrides.push_back(option + " overrides the value stored in " + o.init_file + " (" + stored_value + ")");
  };
  if (stored.order) {
    if (!o.was_given("order")) o.order = *stored.order;
    else if (o.order != *stored.order) note("--order " + std::to_string(o.order), "order " + std::to_string(*stored.order));
  }
  if (stored.precision) {
    if (!o.was_given("precision")) o.precision = *stored.precision;
    else if (o.precision != *stored.precision) note("--precision " + o.precision, *stored.precision);
  }
  // The backend the run stepped on, so that a restart goes on as it ran: make_run_plan takes auto
  // instead, with a note, where this build or machine cannot run it.
  if (stored.backend) {
    if (!o.was_given("backend")) {
      o.backend = *stored.backend;
      o.backend_stored_in = o.init_file;
    } else if (o.backend != *stored.backend) {
      note("--backend " + o.backend, "backend " + *stored.backend);
    }
  }
  if (stored.alpha) {
    if (!o.was_given("alpha")) o.alpha = *stored.alpha;
    else if (o.alpha != *stored.alpha)
      note("--alpha " + number_text(o.alpha),
           "alpha " + number_text(*stored.alpha) + (o.was_given("cfl") || o.was_given("dt") ? "" : "; dt stays the stored one"));
  }
  // The material and the faces' conditions, unless this run gives its own (a note says so).
  if (stored.conductivity && stored.heat_capacity && !o.was_given("alpha") && !o.was_given("conductivity") &&
      !o.was_given("heat-capacity")) {
    o.conductivity = *stored.conductivity;
    o.heat_capacity = *stored.heat_capacity;
    o.given.insert({"conductivity", "heat-capacity"});
  }
  for (int face = 0; face < kFaces; ++face) {
    if (!stored.boundaries[face]) continue;
    const std::string option = std::string("bc-") + face_name(face);
    std::string& value = face_option(o, face);
    if (!o.was_given(option) && !o.was_given("bc")) {
      value = *stored.boundaries[face];
      o.given.insert(option);
    } else if ((o.was_given(option) ? value : o.bc) != *stored.boundaries[face]) {
      note("--" + option + " (or --bc)", stored_boundary_name(face) + " " + *stored.boundaries[face]);
    }
  }
  // The sources, unless this run gives its own; a file source taken from the snapshot must still
  // hold the array it recorded (apps/heat_sources.hpp checks its checksum when it reads it).
  if (stored.sources) {
    std::vector<std::string> texts;
    for (const SourceRecord& source : *stored.sources) texts.push_back(source.text);
    if (!o.was_given("source")) {
      o.source = texts;
      o.given.insert("source");
      for (const SourceRecord& source : *stored.sources)
        if (!source.checksum.empty()) o.source_checksums[source.text] = source.checksum;
    } else if (normalized_sources(o.source) != texts) {
      std::string was;
      for (const std::string& text : texts) was += (was.empty() ? "" : " ") + text;
      note("--source", "sources " + (was.empty() ? std::string("none") : was));
    }
  }
  // The material fields, unless this run gives its own; the files must still give the fields the
  // snapshot's run had (apps/material_fields.hpp checks their checksum when it reads them).
  if (!stored.materials.empty()) {
    bool given = false;
    for (const char* option : kMaterialOptions) given = given || o.was_given(option);
    if (!given) {
      for (const auto& [name, value] : stored.materials.options) {
        const RunOption* option = find_run_option(name);
        if (option) option->set(o, OptionValue(value));
        o.given.insert(name);
      }
      o.materials_checksum = stored.materials.checksum;
    } else {
      std::string was;
      for (const auto& [name, value] : stored.materials.options) was += (was.empty() ? "--" : " --") + name + " " + value;
      note("the material options", was);
    }
  }
  if (stored.output_every) {
    if (!o.was_given("output-every")) o.output_every = *stored.output_every;
    else if (o.output_every != *stored.output_every)
      note("--output-every " + std::to_string(o.output_every), "output_every " + std::to_string(*stored.output_every));
  }
  if (stored.format) {
    if (!o.was_given("format")) o.format = *stored.format;
    else if (parse_output_formats(o.format) != parse_output_formats(*stored.format))
      note("--format " + o.format, "format " + *stored.format);
  }
  if (stored.compress) {
    const std::string stored_codec = compression_name(parse_compression(*stored.compress));
    if (!o.was_given("compress")) {
      // ZFP is for .hdf files alone: a restart that adds .vti files must say which gzip level.
      if (parse_compression(*stored.compress).is_zfp() && parse_output_formats(o.format).has(OutputFormat::Vtk))
        throw InputError("--format " + o.format + " writes .vti files, which ZFP does not compress, and " +
                         o.init_file + " stores compression " + stored_codec +
                         ": give --compress (a gzip level 0..9 for both formats)");
      o.compress = *stored.compress;
    } else if (compression_name(parse_compression(o.compress)) != stored_codec) {
      note("--compress " + o.compress, "compression " + stored_codec);
    }
  }
  if (stored.dt) {
    // dt, not cfl: the run goes on with the time step it had, whatever the options change.
    const std::string was = "dt " + number_text(*stored.dt) + (stored.cfl ? ", cfl " + number_text(*stored.cfl) : "");
    if (!o.was_given("cfl") && !o.was_given("dt")) {
      o.dt = *stored.dt;
      o.given.insert("dt");
      o.dt_stored_in = o.init_file;
    } else if (o.was_given("dt") && o.dt != *stored.dt) {
      note("--dt " + number_text(o.dt), was);
    } else if (o.was_given("cfl") && (!stored.cfl || o.cfl != *stored.cfl)) {
      note("--cfl " + number_text(o.cfl), was);
    }
  }
  take_stored_end_time_and_monitors(o, stored);
  return {overrides, lossy_start_note(o.init_file, stored)};
}

}  // namespace heat
