"""Writes docs/report.schema.json (`make docs`): the JSON Schema of every result document qsim
writes (docs/report.md, One schema).  tests/test_report_schema.c checks that the file is what
this prints, and that every mode's output validates against it."""
import json
num={"type":"number"}
nonneg={"type":"number","minimum":0}
count={"type":"integer","minimum":0}
string={"type":"string"}
boolean={"type":"boolean"}
ref=lambda n:{"$ref":"#/$defs/"+n}
tree={"$ref":"#/$defs/tree"}
defs={}
defs["stats"]={
 "description":"A number over repeated runs (sim/base/sample_stats.h): the mean's 95% interval by the method named; never below 0 when no run was below 0.",
 "type":"object",
 "required":["n","mean","sd","median","min","max","ci95_low","ci95_high","interval"],
 "additionalProperties":False,
 "properties":{"n":{"type":"integer","minimum":1},"mean":num,"sd":nonneg,"median":num,"min":num,"max":num,
   "ci95_low":num,"ci95_high":num,"interval":{"enum":["point","t","t-log"]}},
 "if":{"properties":{"min":{"minimum":0}}},
 "then":{"properties":{"ci95_low":{"minimum":0},"interval":{"enum":["point","t-log"]}}}}
defs["ratio"]={
 "description":"b / a, the ratio of two means, with its 95% interval (never below 0 when both means are above 0).",
 "type":"object","required":["ratio","ci95_low","ci95_high","significant","interval"],"additionalProperties":False,
 "properties":{"ratio":num,"ci95_low":num,"ci95_high":num,"significant":boolean,"interval":{"enum":["point","t","t-log"]}},
 "if":{"properties":{"interval":{"const":"t-log"}}},"then":{"properties":{"ci95_low":{"minimum":0}}}}
defs["tree"]={"description":"Counters: numbers, strings, booleans, nulls, and objects or arrays of them.",
 "anyOf":[num,string,boolean,{"type":"null"},{"type":"array","items":tree},{"type":"object","additionalProperties":tree}]}
defs["named_input"]={"type":"object","required":["name","sha256"],"additionalProperties":False,
 "properties":{"name":string,"path":string,"sha256":{"type":"string","pattern":"^[0-9a-f]{64}$"},"sets":{"type":"array","items":string}}}
defs["provenance"]={"type":"object","required":["qsim","commit"],"additionalProperties":False,
 "properties":{"qsim":string,"commit":string,"command":string,"config":ref("named_input"),"lock":ref("named_input")}}
# the keys of one run's report, model (docs/report.md) and host (docs/native.md)
report_props={
 "schema_version":{"const":1},"kind":string,
 "config":string,"arch":string,"lock":string,"threads":count,"readers":count,"placement":string,"data":string,
 "cs_writes":count,"cs_work":count,"think":count,"jitter":count,"iterations":count,"duration":count,"warmup":count,
 "mode":string,"harness":{"enum":["scenario"]},"seed":count,"cpus":{"type":"array","items":count},"smt_siblings":tree,
 "cycles":nonneg,"acquisitions":nonneg,"cycles_per_acquisition":nonneg,"acquisitions_per_kcycle":nonneg,
 "ns":nonneg,"ns_per_acquisition":nonneg,
 "latency":tree,"per_thread":{"type":"array","items":tree},"fairness":tree,
 "mutual_exclusion":boolean,"stalled":boolean,"faulted":boolean,"halted_in_lock":boolean,
 "counter":tree,"in_cs_violations":tree,"line_size":count,"work_unit_ns":nonneg,"scheduling":tree,"counters":tree,
 "machine_clears":tree,"branch_mispredicts":tree,"paused_cycles":tree,"atomics":tree,"coherence":tree,
 "l1_hit_rate":tree,"sim_instructions":tree,"cores_summed":tree,"memory_system":tree,"os":tree,"os_counters":tree,
 "lock_lines":string,"variables":tree,"profile":{"type":"array","items":tree},"provenance":ref("provenance"),
 "host_seconds":nonneg,"host_cpu_seconds":nonneg,"host_peak_rss_kib":nonneg,"host_fast_forward_share":nonneg,
}
defs["report"]={"description":"One run: `qsim run`, `qsim native` (docs/report.md, docs/native.md).",
 "type":"object","additionalProperties":False,
 "required":["config","arch","lock","threads","data","mode","cycles","acquisitions","cycles_per_acquisition","provenance"],
 "properties":report_props}
measured={"anyOf":[ref("stats"),string]}
summary_props=dict(report_props)
for k,v in report_props.items():
    if v in (num,nonneg,count) and k not in ("threads","readers","cs_writes","cs_work","think","jitter","iterations","duration","warmup","seed","line_size"):
        summary_props[k]={"anyOf":[ref("stats"),num]}
for k in ["cycles","acquisitions","cycles_per_acquisition","acquisitions_per_kcycle"]:
    summary_props[k]=ref("stats")
summary_props.update({"repeat":{"type":"integer","minimum":1},"ok":boolean,"disturbed_runs":count,
  "runs":{"type":"array","items":ref("report")},"latency":ref("stats_tree"),"fairness":ref("stats_tree"),
  "per_thread":{"type":"array","items":ref("stats_tree")}})
defs["stats_tree"]={"description":"A part of a summary: each measured number its stats.",
 "type":"object","additionalProperties":{"anyOf":[ref("stats"),string,boolean,num,{"type":"array"},ref("stats_tree")]}}
defs["summary"]={"description":"Runs over seeds (`--repeat N`, model or host): the report's layout, each measured number its stats.",
 "type":"object","additionalProperties":False,
 "required":["config","lock","threads","mode","repeat","cycles","cycles_per_acquisition"],
 "properties":summary_props}
defs["ratio_tree"]={"description":"b / a in a's layout.",
 "anyOf":[num,{"type":"null"},ref("ratio"),{"type":"array","items":ref("ratio_tree")},{"type":"object","additionalProperties":ref("ratio_tree")}]}
defs["pair"]={"description":"Two side by side, keyed by role: a is --lock (or the model), b is --vs (or the host).",
 "type":"object","additionalProperties":False,"required":["labels","a","b","b_over_a"],
 "properties":{"schema_version":{"const":1},"kind":string,
   "labels":{"type":"object","required":["a","b"],"additionalProperties":False,"properties":{"a":string,"b":string}},
   "a":{"anyOf":[ref("report"),ref("summary")]},"b":{"anyOf":[ref("report"),ref("summary")]},
   "b_over_a":{"type":"object","additionalProperties":ref("ratio_tree")}}}
defs["validate_host"]={"description":"`qsim validate --host`: the model of this machine against native runs, lock by lock (docs/validate-host.md).",
 "type":"object","additionalProperties":False,"required":["config","unit","rows","provenance"],
 "properties":{"schema_version":{"const":1},"kind":string,"config":string,"unit":string,"placement":string,
   "rows":{"type":"array","items":{"type":"object","required":["lock","threads","data","host","model"],
      "properties":{"lock":string,"threads":count,"data":string,"host":ref("stats"),"model":ref("stats"),
        "model_over_host":nonneg,"mutual_exclusion":boolean,"host_runs_disturbed":count}}},
   "median_abs_error":nonneg,"spearman":num,"provenance":ref("provenance")}}
defs["validation"]={"description":"`qsim validate`: the model against published figures (docs/validation.md).",
 "type":"object","additionalProperties":False,"required":["rows","failed","provenance"],
 "properties":{"schema_version":{"const":1},"kind":string,"rows":{"type":"array","items":{"type":"object"}},"failed":count,"provenance":ref("provenance")}}
verdict={"enum":["wins","loses","even"]}
regime={"type":"object","required":["seeds","share","cycles_per_acquisition","low","high"],
 "properties":{"seeds":count,"share":nonneg,"cycles_per_acquisition":nonneg,"low":nonneg,"high":nonneg,
   "failed_cas_per_acquisition":nonneg,"longest_streak":nonneg}}
side_window={"type":"object","required":["acquisitions_per_kcycle","min_thread_share","max_thread_share","longest_streak"],
 "properties":{"acquisitions_per_kcycle":nonneg,"min_thread_share":nonneg,"max_thread_share":nonneg,"longest_streak":nonneg}}
defs["compare"]={"description":"`qsim compare` (make run): a verdict per workload and thread count, with its spread over harness timings, its regimes over seeds, a measured window and the clear penalty's range.",
 "type":"object","required":["config","a","b","rows","ok","provenance"],
 "properties":{"schema_version":{"const":1},"kind":string,"config":string,"a":string,"b":string,"summary":string,
   "timings":{"type":"object","required":["think","jitter","seeds","iterations"],
     "properties":{"think":{"type":"array","items":count},"jitter":{"type":"array","items":count},"seeds":count,"iterations":count}},
   "check_seeds":count,"window":count,"warmup":count,
   "rows":{"type":"array","items":{"type":"object","required":["b_over_a","regimes"],"properties":{"b_over_a":ref("ratio"),
     "regimes":{"type":"object","required":["a","b","one_interval"],
       "properties":{"a":{"type":"array","minItems":1,"items":regime},"b":{"type":"array","minItems":1,"items":regime},"one_interval":boolean}},
     "window":{"type":"object","required":["throughput_b_over_a","a","b"],
       "properties":{"throughput_b_over_a":ref("ratio"),"a":side_window,"b":side_window}},
     "timing":{"type":"object","required":["median","min","max","b_wins","b_loses","even","regimes","settings"],
       "properties":{"median":nonneg,"min":nonneg,"max":nonneg,"b_wins":count,"b_loses":count,"even":count,
         "regimes":{"type":"array","minItems":1,"items":{"type":"object","required":["settings","low","high"],
           "properties":{"settings":count,"low":nonneg,"high":nonneg}}},
         "settings":{"type":"array","items":{"type":"object","required":["think","jitter","b_over_a","verdict","regime"],
           "properties":{"think":count,"jitter":count,"b_over_a":ref("ratio"),"verdict":verdict,"regime":count}}}}},
     "clear_penalty":{"type":"object","required":["floor","top","configured","verdict","b_over_a_at_floor","b_over_a_at_top","robust"],
       "properties":{"floor":count,"top":count,"configured":count,"verdict":verdict,"b_over_a_at_floor":ref("ratio"),
         "b_over_a_at_top":ref("ratio"),"robust":boolean,"holds_to":count,"flips_at":count,"flipped_to":verdict,
         "b_over_a_at_flip":ref("ratio")}}}}},
   "ok":boolean,"provenance":ref("provenance")}}
defs["script"]={"description":"`qsim run --script`: scripted accesses on the memory system alone (docs/teaching.md).",
 "type":"object","required":["config","protocol","harness","accesses"],
 "properties":{"schema_version":{"const":1},"kind":string,"config":string,"protocol":string,"harness":{"const":"script"},
   "script":string,"threads":count,"accesses":{"type":"array","items":{"type":"object","required":["n","access","cycles"],
     "properties":{"n":count,"access":string,"cycles":count}}},
   "fault":{"description":"the fault planted with --fault (coherence/protocol_fault.h)","type":"string"},
   "invariant":{"description":"the invariant checker's complaint, after the last access listed, where the script stopped","type":"string"}}}
kinds={"report":"report","script":"script","summary":"summary","pair":"pair","validate-host":"validate_host","validation":"validation","compare":"compare"}
schema={"$schema":"https://json-schema.org/draft/2020-12/schema",
 "title":"qsim's result documents, schema_version 1",
 "description":"Every JSON document qsim writes for results (docs/report.md, 'One schema'): run, --vs, --native, --repeat, --repeat --vs, native, native --repeat, --scenario, --script, validate, validate --host, compare. The CSV of each is the same document flattened to one header and one row.",
 "type":"object","required":["schema_version","kind"],
 "properties":{"schema_version":{"const":1},"kind":{"enum":list(kinds)}},
 "allOf":[{"if":{"properties":{"kind":{"const":k}}},"then":ref(v)} for k,v in kinds.items()],
 "$defs":defs}
print(json.dumps(schema,indent=2))
