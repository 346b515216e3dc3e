// ge::Operator, the graph API's node, for host code written against it (cann-ops LinSpace keeps a
// helper taking one beside its tiling). The sim builds no graphs: an Operator holds its name and
// type, and nothing in the sim hands one to operator code.
#ifndef OPKG_SIM_GRAPH_OPERATOR_H
#define OPKG_SIM_GRAPH_OPERATOR_H

#include <string>
#include "graph/ascend_string.h"
#include "graph/tensor.h"
#include "graph/types.h"

namespace ge {

class Operator {
public:
    Operator() = default;
    explicit Operator(const char* type) : type_(type) {}
    Operator(const char* name, const char* type) : name_(name), type_(type) {}
    Operator(const AscendString& name, const AscendString& type) : name_(name), type_(type) {}
    virtual ~Operator() = default;
    graphStatus GetName(AscendString& name) const {
        name = name_;
        return GRAPH_SUCCESS;
    }
    graphStatus GetOpType(AscendString& type) const {
        type = type_;
        return GRAPH_SUCCESS;
    }
    // A graph node's tensors and attrs (cann-ops ReverseSequence's CheckSupported reads them): an
    // Operator outside a graph has none, so descs are empty and every attr is missing
    TensorDesc GetInputDescByName(const char*) const { return TensorDesc(); }
    TensorDesc GetOutputDescByName(const char*) const { return TensorDesc(); }
    // CANN's older spellings, by name or index (ops-nn's masked_scatter CheckIfAICoreSupported
    // reads `op.GetInputDesc("x").GetShape()`); a string, so that GetInputDesc(0) is the index
    TensorDesc GetInputDesc(const std::string&) const { return TensorDesc(); }
    TensorDesc GetInputDesc(uint32_t) const { return TensorDesc(); }
    TensorDesc GetOutputDesc(const std::string&) const { return TensorDesc(); }
    TensorDesc GetOutputDesc(uint32_t) const { return TensorDesc(); }
    template <class T> graphStatus GetAttr(const char*, T&) const { return GRAPH_FAILED; }

private:
    AscendString name_, type_;
};

}  // namespace ge
#endif
