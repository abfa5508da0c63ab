package dev.nunac.ir;

/** Where a plan came from; nothing after the front end depends on it except messages. */
public enum PlanFormat {
    DSL, MSCCL_XML, MSCCLPP_JSON
}
